import type { NodeTypeDescription, NodeWebhookDescription } from './nodeTypes';
import { parameterValues } from './nodeIssues';
import type { JsonValue, WorkflowNode } from './types';

/** The id the editor uses for a workflow that is not saved yet (n8n's PLACEHOLDER_EMPTY_WORKFLOW_ID). */
export const UNSAVED_WORKFLOW_ID = '__EMPTY__';

export type WebhookUrlKind = 'test' | 'production';

export interface WebhookUrlBase {
  /** The instance's public address, with a trailing slash. */
  base: string;
  endpointWebhook: string;
  endpointWebhookTest: string;
}

/**
 * A webhook description value: plain, or the `={{$parameter["name"]}}` form node types use to
 * point at one of their parameters, optionally with a fallback (`|| "GET"`) for an empty one. A
 * parameter holding a list of strings (Webhook 2's several methods) gives the list. Anything
 * else is not resolved here and gives undefined.
 */
export function webhookValue(
  value: unknown,
  parameters: Readonly<Record<string, JsonValue | undefined>>,
): string | boolean | string[] | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  if (!value.startsWith('=')) return value;
  const match = /^=\{\{\s*\$parameter(?:\["([^"]+)"\]|\['([^']+)'\]|\.(\w+))\s*(?:\|\|\s*(?:"([^"]*)"|'([^']*)')\s*)?\}\}$/.exec(value);
  const name = match ? (match[1] ?? match[2] ?? match[3]) : undefined;
  if (match === null || name === undefined) return undefined;
  const fallback = match[4] ?? match[5];
  const resolved = parameters[name];
  if (Array.isArray(resolved)) return resolved.filter((v): v is string => typeof v === 'string');
  if (typeof resolved === 'string' || typeof resolved === 'boolean') return resolved === '' && fallback !== undefined ? fallback : resolved;
  if (resolved === undefined || resolved === null) return fallback ?? '';
  return String(resolved);
}

/** The path a node's webhook listens on, as the server computes it (n8n's getNodeWebhookPath). */
export function webhookPath(workflowId: string, node: WorkflowNode, path: string, isFullPath: boolean, restart: boolean): string {
  let out: string;
  if (restart) out = path;
  else if (!node.webhookId) out = `${workflowId}/${encodeURIComponent(node.name.toLowerCase())}/${path}`;
  else if (isFullPath) out = path || node.webhookId;
  else out = `${node.webhookId}/${path}`;
  return out.replace(/^\/+|\/+$/g, '');
}

export interface NodeWebhookUrl {
  method: string;
  url: string;
}

/** The test or production URLs of a node's webhooks (restart webhooks are not listed). */
export function nodeWebhookUrls(
  node: WorkflowNode,
  type: NodeTypeDescription,
  workflowId: string | null,
  kind: WebhookUrlKind,
  base: WebhookUrlBase,
): NodeWebhookUrl[] {
  const values = parameterValues(node, type.properties ?? []);
  const endpoint = kind === 'test' ? base.endpointWebhookTest : base.endpointWebhook;
  return (type.webhooks ?? [])
    .filter((webhook: NodeWebhookDescription) => webhook.restartWebhook !== true)
    .flatMap((webhook) => {
      const method = webhookValue(webhook.httpMethod, values);
      const path = webhookValue(webhook.path, values);
      const full = webhookValue(webhook.isFullPath, values);
      const resolvedPath = webhookPath(workflowId ?? UNSAVED_WORKFLOW_ID, node, typeof path === 'string' ? path : '', full === true, false);
      const url = `${base.base}${endpoint}/${resolvedPath}`;
      // A node listening to several methods has one URL per method.
      const methods = Array.isArray(method) ? method : [typeof method === 'string' ? method : ''];
      const listed = methods.map((m) => (m !== '' ? m.toUpperCase() : 'GET'));
      return (listed.length > 0 ? listed : ['GET']).map((m) => ({ method: m, url }));
    });
}
