import type { EvaluationResult } from '@/core/expressions/result';
import type { TaskData } from '@/core/push/messages';
import type { Connections, WorkflowNode, WorkflowSettings } from '@/core/workflow/types';
import { restApi } from './fetcher';

/** The body of POST /rest/expressions/evaluate. */
export interface EvaluateExpressionBody {
  workflowData: {
    id?: string;
    name?: string;
    active?: boolean;
    nodes: WorkflowNode[];
    connections: Connections;
    settings?: WorkflowSettings;
  };
  runData: Readonly<Record<string, readonly TaskData[]>>;
  nodeName: string;
  /** With its leading `=`. */
  expression: string;
  itemIndex?: number;
  runIndex?: number;
}

/** Evaluates an expression for one node as the engine would while running it. */
export function evaluateExpression(body: EvaluateExpressionBody, signal?: AbortSignal): Promise<EvaluationResult> {
  return restApi.request<EvaluationResult>('POST', '/expressions/evaluate', { ...body }, signal);
}
