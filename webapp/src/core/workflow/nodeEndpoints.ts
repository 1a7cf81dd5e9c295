import { nodeParametersWithDefaults } from '@/core/parameters/nodeParameters';
import { isJsonObject } from '@/core/parameters/path';
import { MERGE_NODE_TYPE, storedVersion, SWITCH_NODE_TYPE, type NodeTypeDescription } from './nodeTypes';
import type { JsonObject, JsonValue, WorkflowNode } from './types';

/** The main inputs and outputs a node shows, with their labels. */
export interface NodeEndpoints {
  inputs: number;
  outputs: number;
  inputNames: string[];
  outputNames: string[];
}

const WEBHOOK_NODE_TYPE = 'n8n-nodes-base.webhook';
const RESPOND_NODE_TYPE = 'n8n-nodes-base.respondToWebhook';

/** The most inputs or outputs a node's parameters can ask for; a larger number is cut to this. */
export const MAX_DYNAMIC_ENDPOINTS = 64;

type Node = Pick<WorkflowNode, 'type' | 'typeVersion' | 'parameters'>;

/**
 * A node's inputs and outputs. Most types have the fixed lists of their description; for the
 * types whose n8n 1.x description computes them from the parameters (an expression in
 * `outputs`/`inputs`) the same rule is applied here: Switch 2 and 3 get one output per rule
 * (Switch 3 plus the fallback output when it is "extra") or the number of outputs the expression
 * mode sets, Merge 3 gets `numberInputs` inputs, Webhook 2 one output per method when it listens to
 * several, Respond to Webhook 1.3 and later a second output with its response.
 */
export function nodeEndpoints(type: NodeTypeDescription, node: Node): NodeEndpoints {
  const fixed: NodeEndpoints = {
    inputs: type.inputs.length,
    outputs: type.outputs.length,
    inputNames: type.inputNames ?? [],
    outputNames: type.outputNames ?? [],
  };
  const version = storedVersion(node);
  if (type.name === SWITCH_NODE_TYPE && version >= 2) {
    const names = switchOutputs(nodeParametersWithDefaults(type, node.parameters, version), version, fixed.outputs);
    return { ...fixed, outputs: names.length, outputNames: names };
  }
  if (type.name === WEBHOOK_NODE_TYPE && version >= 2) {
    // Webhook 2 listening to several methods has one output per method (n8n's configuredOutputs).
    const methods = nodeParametersWithDefaults(type, node.parameters, version).httpMethod;
    if (Array.isArray(methods) && methods.length > 0) {
      const names = methods.slice(0, MAX_DYNAMIC_ENDPOINTS).map(String);
      return { ...fixed, outputs: names.length, outputNames: names };
    }
    return fixed;
  }
  if (type.name === RESPOND_NODE_TYPE && version >= 1.3) {
    // Respond to Webhook 1.3 (and 1.4 on with enableResponseOutput) adds the response it sent.
    const on = version === 1.3 || nodeParametersWithDefaults(type, node.parameters, version).enableResponseOutput === true;
    return on ? { ...fixed, outputs: 2, outputNames: ['Input Data', 'Response'] } : fixed;
  }
  if (type.name === MERGE_NODE_TYPE && version >= 3) {
    const parameters = nodeParametersWithDefaults(type, node.parameters, version);
    const count = countOf(parameters.numberInputs) ?? 2;
    return { ...fixed, inputs: count, inputNames: Array.from({ length: count }, (_, i) => `Input ${i + 1}`) };
  }
  return fixed;
}

/** Switch's output labels (n8n's configuredOutputs of Switch 2 and 3). */
function switchOutputs(parameters: JsonObject, version: number, fallbackCount: number): string[] {
  if (parameters.mode === 'expression') {
    // An expression for the count cannot be known before a run: the description's outputs stay.
    const count = countOf(version >= 3 ? parameters.numberOutputs : parameters.outputsAmount) ?? fallbackCount;
    return Array.from({ length: count }, (_, i) => String(i));
  }
  const rules = isJsonObject(parameters.rules) ? parameters.rules[version >= 3 ? 'values' : 'rules'] : undefined;
  const names = (Array.isArray(rules) ? rules : []).slice(0, MAX_DYNAMIC_ENDPOINTS).map((rule, index) => {
    const key = isJsonObject(rule) ? outputKey(rule, version) : '';
    return key !== '' ? key : String(index);
  });
  const options = isJsonObject(parameters.options) ? parameters.options : {};
  if (version >= 3 && options.fallbackOutput === 'extra' && names.length < MAX_DYNAMIC_ENDPOINTS) {
    const renamed = typeof options.renameFallbackOutput === 'string' ? options.renameFallbackOutput : '';
    names.push(renamed !== '' ? renamed : 'Fallback');
  }
  return names;
}

/** A rule's output label: Switch 3 uses it only when "Rename Output" is on. */
function outputKey(rule: JsonObject, version: number): string {
  if (version >= 3 && rule.renameOutput !== true) return '';
  return typeof rule.outputKey === 'string' ? rule.outputKey : '';
}

function countOf(value: JsonValue | undefined): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n) || n < 0) return undefined;
  return Math.min(Math.floor(n), MAX_DYNAMIC_ENDPOINTS);
}
