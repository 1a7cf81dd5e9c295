/**
 * The n8n-compatible workflow document (ARCHITECTURE.md §4): nodes, and connections keyed by source
 * node name → connection type → output index → targets.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type Position = [number, number];

export interface NodeCredential {
  id: string | null;
  name: string;
}

export interface WorkflowNode {
  id?: string;
  name: string;
  type: string;
  typeVersion: number;
  position: Position;
  parameters: JsonObject;
  credentials?: Record<string, NodeCredential>;
  disabled?: boolean;
  notes?: string;
  notesInFlow?: boolean;
  color?: string;
  webhookId?: string;
  alwaysOutputData?: boolean;
  executeOnce?: boolean;
  continueOnFail?: boolean;
  retryOnFail?: boolean;
  maxTries?: number;
  waitBetweenTries?: number;
}

export interface ConnectionTarget {
  node: string;
  type: string;
  index: number;
}

/** Outputs of one node per connection type; each output lists its targets. */
export type NodeOutputs = Record<string, Array<ConnectionTarget[] | null>>;
export type Connections = Record<string, NodeOutputs>;

/** One connection, flattened: source output to target input. */
export interface Connection {
  source: string;
  sourceIndex: number;
  target: string;
  targetIndex: number;
  /** Always 'main' for the connections the editor draws. */
  type: string;
}

/** The part of a workflow the canvas edits. */
export interface Graph {
  nodes: WorkflowNode[];
  connections: Connections;
}

export type SaveDataSetting = 'DEFAULT' | 'all' | 'none';
export type BooleanSetting = 'DEFAULT' | boolean;

/**
 * The order nodes run in (n8n 1.x settings.executionOrder): v1 runs each branch to its end, the
 * top-most first; v0, the 0.186 order and the one of workflows without the setting, runs node
 * by node across branches.
 */
export type ExecutionOrder = 'v0' | 'v1';

export interface WorkflowSettings {
  executionOrder?: ExecutionOrder;
  errorWorkflow?: string;
  timezone?: string;
  saveDataErrorExecution?: SaveDataSetting;
  saveDataSuccessExecution?: SaveDataSetting;
  saveManualExecutions?: BooleanSetting;
  saveExecutionProgress?: BooleanSetting;
  /** Seconds; -1 is off. */
  executionTimeout?: number;
  maxExecutionTimeout?: number;
  [key: string]: JsonValue | undefined;
}

export interface Tag {
  id: string;
  name: string;
  usageCount?: number;
}

/** A workflow as GET /rest/workflows/:id answers it. */
export interface StoredWorkflow extends Graph {
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  settings: WorkflowSettings | null;
  tags: Tag[];
  versionId?: string;
  staticData?: JsonValue;
  pinData?: JsonValue;
}

/** A workflow in the list of GET /rest/workflows. */
export interface WorkflowSummary {
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  tags: Tag[];
}

/** Names the main connection type once. */
export const MAIN = 'main';
