import { workflowDataOf } from '@/core/workflow/clipboard';
import type { Graph } from '@/core/workflow/types';

/** Messages the demo view posts to the page that frames it. */
export type FrameMessage = { command: 'n8nReady'; version: string } | { command: 'error' } | { command: 'openNDV' } | { command: 'closeNDV' };

export class InvalidWorkflowError extends Error {
  constructor() {
    super('Invalid workflow object');
    this.name = 'InvalidWorkflowError';
  }
}

export interface FrameWorkflow extends Graph {
  name?: string;
}

/**
 * Reads a host message (a JSON string or an object). Returns the workflow of an `openWorkflow`
 * command, null for other commands and unreadable data, and throws InvalidWorkflowError when an
 * `openWorkflow` workflow lacks nodes or connections (spec 001 §5).
 */
export function readFrameCommand(data: unknown): FrameWorkflow | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (typeof value !== 'object' || value === null || (value as { command?: unknown }).command !== 'openWorkflow') return null;
  const workflow = (value as { workflow?: unknown }).workflow;
  const graph = workflowDataOf(workflow);
  if (!graph) throw new InvalidWorkflowError();
  const name = (workflow as { name?: unknown }).name;
  return typeof name === 'string' ? { ...graph, name } : graph;
}
