import type { JsonObject, JsonValue, WorkflowNode } from './types';

export interface NodePropertyOption {
  name: string;
  value?: JsonValue;
  displayName?: string;
  [key: string]: unknown;
}

export interface DisplayOptions {
  show?: Record<string, JsonValue[]>;
  hide?: Record<string, JsonValue[]>;
}

export interface NodeProperty {
  name: string;
  displayName: string;
  type: string;
  default?: JsonValue;
  required?: boolean;
  displayOptions?: DisplayOptions;
  options?: NodePropertyOption[];
  typeOptions?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface NodeCredentialDescription {
  name: string;
  required?: boolean;
  displayOptions?: DisplayOptions;
}

export interface NodeWebhookDescription {
  httpMethod: string;
  path: string;
  [key: string]: unknown;
}

/** A node type description as GET/POST /rest/node-types answers it (n8n's INodeTypeDescription). */
export interface NodeTypeDescription {
  name: string;
  displayName: string;
  description?: string;
  group: string[];
  version: number | number[];
  defaultVersion?: number;
  defaults: { name: string; color?: string };
  inputs: string[];
  outputs: string[];
  inputNames?: string[];
  outputNames?: string[];
  icon?: string;
  iconUrl?: string;
  subtitle?: string;
  hidden?: boolean;
  polling?: boolean;
  maxNodes?: number;
  webhooks?: NodeWebhookDescription[];
  credentials?: NodeCredentialDescription[];
  properties?: NodeProperty[];
  documentationUrl?: string;
  eventTriggerDescription?: string;
  codex?: { categories?: string[]; subcategories?: Record<string, string[]>; alias?: string[] };
}

// The node types the editor treats specially, named once.
export const STICKY_NOTE_TYPE = 'n8n-nodes-base.stickyNote';
export const START_NODE_TYPE = 'n8n-nodes-base.start';
export const MANUAL_TRIGGER_TYPE = 'n8n-nodes-base.manualTrigger';
export const WEBHOOK_NODE_TYPE = 'n8n-nodes-base.webhook';
export const HTTP_REQUEST_NODE_TYPE = 'n8n-nodes-base.httpRequest';
export const CRON_NODE_TYPE = 'n8n-nodes-base.cron';
export const INTERVAL_NODE_TYPE = 'n8n-nodes-base.interval';
export const SCHEDULE_TRIGGER_NODE_TYPE = 'n8n-nodes-base.scheduleTrigger';
export const CODE_NODE_TYPE = 'n8n-nodes-base.code';
export const SWITCH_NODE_TYPE = 'n8n-nodes-base.switch';
export const MERGE_NODE_TYPE = 'n8n-nodes-base.merge';

/** The highest version a description covers (`version` may be a list). */
export function latestVersion(type: NodeTypeDescription): number {
  if (type.defaultVersion !== undefined) return type.defaultVersion;
  return Array.isArray(type.version) ? Math.max(...type.version) : type.version;
}

export function hasVersion(type: NodeTypeDescription, version: number): boolean {
  return Array.isArray(type.version) ? type.version.includes(version) : type.version === version;
}

/** A node's typeVersion; 1 when the node has none (as the server reads it). */
export function storedVersion(node: Pick<WorkflowNode, 'typeVersion'>): number {
  return typeof node.typeVersion === 'number' && node.typeVersion !== 0 ? node.typeVersion : 1;
}

export function isTriggerType(type: NodeTypeDescription): boolean {
  return type.group.includes('trigger');
}

/**
 * Nodes that can run a workflow on their own once it is active: triggers, polling nodes and
 * webhook nodes. The Manual Trigger only runs from the editor, so it does not count.
 */
export function canActivateWorkflow(type: NodeTypeDescription): boolean {
  if (type.name === MANUAL_TRIGGER_TYPE) return false;
  return isTriggerType(type) || type.polling === true || (type.webhooks?.length ?? 0) > 0;
}

/** Looks up node types by name and version. */
export class NodeTypeIndex {
  private readonly byName = new Map<string, NodeTypeDescription[]>();
  /** Answers by name and version: a large workflow asks the same few questions once per node. */
  private readonly answers = new Map<string, NodeTypeDescription | undefined>();

  constructor(types: readonly NodeTypeDescription[]) {
    for (const type of types) {
      const list = this.byName.get(type.name) ?? [];
      list.push(type);
      this.byName.set(type.name, list);
    }
  }

  /**
   * The description covering that version; without a version, the latest one of the type (what
   * the node creator adds). A version the type does not list has no description: a node from a
   * newer n8n is shown as unknown, never drawn with another version's parameters.
   */
  get(name: string, version?: number): NodeTypeDescription | undefined {
    const key = `${name}@${version ?? ''}`;
    if (this.answers.has(key)) return this.answers.get(key);
    const answer = this.find(name, version);
    this.answers.set(key, answer);
    return answer;
  }

  private find(name: string, version?: number): NodeTypeDescription | undefined {
    const list = this.byName.get(name);
    if (!list) return undefined;
    if (version !== undefined) return list.find((type) => hasVersion(type, version));
    return list.reduce((best, type) => (latestVersion(type) > latestVersion(best) ? type : best));
  }

  /** The description of a node's stored version; a node without a typeVersion has version 1. */
  forNode(node: WorkflowNode): NodeTypeDescription | undefined {
    return this.get(node.type, storedVersion(node));
  }

  /** Every version the type lists, ascending; empty for an unknown type. */
  versions(name: string): number[] {
    const all = (this.byName.get(name) ?? []).flatMap((type) => (Array.isArray(type.version) ? type.version : [type.version]));
    return [...new Set(all)].sort((a, b) => a - b);
  }

  /** The highest version of each type. */
  latest(): NodeTypeDescription[] {
    return [...this.byName.keys()].map((name) => this.get(name)).filter((type): type is NodeTypeDescription => type !== undefined);
  }
}

/** Default parameter values of a type: top-level properties with a default. */
export function defaultParameters(type: NodeTypeDescription | undefined): JsonObject {
  const out: JsonObject = {};
  for (const property of type?.properties ?? []) {
    if (property.default !== undefined && property.type !== 'notice') out[property.name] = property.default;
  }
  return out;
}
