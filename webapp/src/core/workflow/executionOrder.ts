import type { ExecutionOrder, WorkflowSettings } from './types';

/** The settings a workflow created in the editor starts with: n8n 1.x gives new workflows the v1 order. */
export function newWorkflowSettings(): WorkflowSettings {
  return { executionOrder: 'v1' };
}

/** A workflow's execution order; without the setting (a workflow from before it existed) it is v0. */
export function executionOrderOf(settings: WorkflowSettings | null | undefined): ExecutionOrder {
  return settings?.executionOrder === 'v1' ? 'v1' : 'v0';
}
