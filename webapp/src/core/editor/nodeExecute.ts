import { CRON_NODE_TYPE, INTERVAL_NODE_TYPE, MANUAL_TRIGGER_TYPE, SCHEDULE_TRIGGER_NODE_TYPE, isTriggerType, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { ExecutionStatus } from './execution';

/** Schedule triggers fire by themselves, so running them is a plain execute. */
const SCHEDULE_TRIGGER_TYPES = new Set([CRON_NODE_TYPE, INTERVAL_NODE_TYPE, SCHEDULE_TRIGGER_NODE_TYPE]);

/** What the node details view's execute button needs of the editor's run. */
export interface ExecuteButtonState {
  status: ExecutionStatus;
  /** Nodes running now. */
  executing: readonly string[];
}

/** The label key of the execute button for a node (n8n's NodeExecuteButton). */
export function executeLabel(type: NodeTypeDescription | undefined, listening: boolean, executing: boolean): string {
  if (listening) return 'ndv.execute.stopListening';
  if (executing) return 'ndv.execute.executing';
  if (type && isTriggerType(type) && type.name !== MANUAL_TRIGGER_TYPE) {
    if (type.polling) return 'ndv.execute.fetchEvent';
    if (!SCHEDULE_TRIGGER_TYPES.has(type.name)) return 'ndv.execute.listenForEvent';
  }
  return 'ndv.execute.executeNode';
}

/**
 * Why a node cannot be executed now, as a label key; null when it can. Every Execute Node button
 * (the panel header's and the output panel's) follows the same rule.
 */
export function executeBlockedReason(state: { disabled: boolean; hasIssues: boolean; otherRun: boolean }): string | null {
  if (state.disabled) return 'ndv.execute.nodeIsDisabled';
  if (state.hasIssues) return 'ndv.execute.requiredFieldsMissing';
  if (state.otherRun) return 'ndv.execute.workflowAlreadyRunning';
  return null;
}
