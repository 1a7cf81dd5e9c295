import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue, NodeCredential, WorkflowNode } from '@/core/workflow/types';
import { isJsonObject, parsePath, setAt } from './path';
import { nodeParametersToStore, sameJson } from './nodeParameters';
import { nodeSetting } from './settings';

/**
 * One edit in the parameter list. `path` is relative to the node: `parameters.<name>` (nested as
 * `parameters.options.timeout` or `parameters.values.string[0].name`), `credentials.<type>` (value
 * `{id, name}`), or a settings field such as `notes` or `retryOnFail`. `undefined` removes.
 */
export interface ParameterChange {
  path: string;
  value: JsonValue | undefined;
}

function credentialValue(value: JsonValue | undefined): NodeCredential | undefined {
  if (!isJsonObject(value) || typeof value.name !== 'string') return undefined;
  return { id: typeof value.id === 'string' ? value.id : null, name: value.name };
}

/**
 * The node patch one change makes (as n8n's NodeSettings.valueChanged): the value is set at its
 * path (an array element given `undefined` is removed), then the parameters are rebuilt so that
 * values of parameters no longer shown are dropped and defaults are not stored. A setting equal to
 * its default is removed. An unknown path changes nothing.
 */
export function applyParameterChange(node: WorkflowNode, type: NodeTypeDescription | undefined, change: ParameterChange): Partial<WorkflowNode> {
  const [head, ...rest] = parsePath(change.path);
  if (head === 'parameters') {
    const next = setAt(node.parameters, rest, change.value);
    const parameters: JsonObject = isJsonObject(next) ? next : {};
    return { parameters: nodeParametersToStore(type, parameters, node.typeVersion) };
  }
  if (head === 'credentials') {
    const [credentialType] = rest;
    if (typeof credentialType !== 'string' || rest.length !== 1) return {};
    const credential = credentialValue(change.value);
    const others = Object.entries(node.credentials ?? {}).filter(([name]) => name !== credentialType);
    const credentials: Record<string, NodeCredential> = Object.fromEntries(credential ? [...others, [credentialType, credential]] : others);
    return { credentials: Object.keys(credentials).length > 0 ? credentials : undefined };
  }
  const setting = typeof head === 'string' && rest.length === 0 ? nodeSetting(head) : undefined;
  if (!setting) return {};
  const value = change.value === undefined || change.value === null || sameJson(change.value, setting.default) ? undefined : change.value;
  return { [setting.name]: value } as Partial<WorkflowNode>;
}
