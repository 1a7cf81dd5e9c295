/** One run of one node (n8n's ITaskData); see ARCHITECTURE.md §4 "Execution data". */
export interface TaskData {
  startTime: number;
  executionTime: number;
  source: Array<{ previousNode: string; previousNodeOutput?: number; previousNodeRun?: number } | null>;
  data?: { main: Array<Array<{ json: Record<string, unknown>; binary?: Record<string, unknown>; pairedItem?: unknown }> | null> };
  error?: { message: string; [key: string]: unknown };
}

/** A finished run as the executionFinished message carries it. */
export interface RunResult {
  data: {
    resultData: {
      runData: Record<string, TaskData[]>;
      lastNodeExecuted?: string;
      error?: { message: string; [key: string]: unknown };
    };
    [key: string]: unknown;
  };
  finished?: boolean;
  mode: string;
  startedAt: string;
  stoppedAt?: string;
  waitTill?: string | null;
  [key: string]: unknown;
}

export interface PushMessageMap {
  executionStarted: {
    executionId: string;
    mode: string;
    startedAt: string;
    workflowId: string;
    workflowName?: string;
    retryOf?: string;
  };
  nodeExecuteBefore: { executionId: string; nodeName: string };
  nodeExecuteAfter: { executionId: string; nodeName: string; data: TaskData };
  executionFinished: { executionId: string; data: RunResult; retryOf?: string };
  testWebhookReceived: { workflowId: string; executionId: string };
  testWebhookDeleted: { workflowId: string; executionId?: string };
  sendConsoleMessage: { source: string; messages: unknown[] };
}

export type PushMessageType = keyof PushMessageMap;

/** A message on the push channel: `data: {"type": …, "data": …}`. */
export type PushMessage = { [T in PushMessageType]: { type: T; data: PushMessageMap[T] } }[PushMessageType];

const MESSAGE_TYPES: ReadonlySet<string> = new Set<PushMessageType>([
  'executionStarted',
  'nodeExecuteBefore',
  'nodeExecuteAfter',
  'executionFinished',
  'testWebhookReceived',
  'testWebhookDeleted',
  'sendConsoleMessage',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads one event's data. Returns null for text that is not JSON, is not `{type, data}` or names
 * a type this client does not know; the payload itself is trusted to match its type.
 */
export function parsePushMessage(raw: string): PushMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(parsed) || typeof parsed.type !== 'string' || !MESSAGE_TYPES.has(parsed.type)) return null;
  if (!isRecord(parsed.data)) return null;
  return parsed as unknown as PushMessage;
}
