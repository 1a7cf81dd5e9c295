import useSWR from 'swr';
import type { Connections, StoredWorkflow, Tag, WorkflowNode, WorkflowSettings, WorkflowSummary } from '@/core/workflow/types';
import { restApi } from './fetcher';

export const WORKFLOWS_KEY = '/workflows';
export const TAGS_KEY = '/tags';

/** The body of POST /workflows and PATCH /workflows/:id; tags are sent as ids. */
export interface WorkflowBody {
  name?: string;
  active?: boolean;
  nodes?: WorkflowNode[];
  connections?: Connections;
  settings?: WorkflowSettings;
  tags?: readonly string[];
}

export function getWorkflow(id: string): Promise<StoredWorkflow> {
  return restApi.get<StoredWorkflow>(`/workflows/${encodeURIComponent(id)}`);
}

export function createWorkflow(body: WorkflowBody): Promise<StoredWorkflow> {
  return restApi.request<StoredWorkflow>('POST', '/workflows', { ...body });
}

export function updateWorkflow(id: string, body: WorkflowBody): Promise<StoredWorkflow> {
  return restApi.request<StoredWorkflow>('PATCH', `/workflows/${encodeURIComponent(id)}`, { ...body });
}

export function deleteWorkflow(id: string): Promise<boolean> {
  return restApi.request<boolean>('DELETE', `/workflows/${encodeURIComponent(id)}`);
}

/** A free name for a new workflow; the server numbers taken names. */
export async function newWorkflowName(name?: string): Promise<{ name: string; onboardingFlowEnabled: boolean }> {
  return restApi.get('/workflows/new', name ? { name } : undefined);
}

/** Fetches a workflow file through the server (GET /workflows/from-url). */
export function workflowFromUrl(url: string): Promise<{ nodes: unknown; connections: unknown }> {
  return restApi.get('/workflows/from-url', { url });
}

/** Every workflow the user may open, for the open dialog and the error-workflow select. */
export function useWorkflowList(enabled = true) {
  return useSWR<WorkflowSummary[]>(enabled ? WORKFLOWS_KEY : null, () => restApi.get<WorkflowSummary[]>('/workflows'), { revalidateOnFocus: false });
}

export function useTags(enabled = true) {
  return useSWR<Tag[]>(enabled ? TAGS_KEY : null, () => restApi.get<Tag[]>('/tags'), { revalidateOnFocus: false });
}

export function createTag(name: string): Promise<Tag> {
  return restApi.request<Tag>('POST', '/tags', { name });
}

export function useTimezones(enabled: boolean) {
  return useSWR<Record<string, string>>(enabled ? '/options/timezones' : null, () => restApi.get<Record<string, string>>('/options/timezones'), {
    revalidateOnFocus: false,
  });
}

export interface ActivationError {
  time?: number | string;
  error?: { message?: string };
}

/**
 * The last activation error of a workflow (GET /active/error/:id): null while its triggers run,
 * so an active workflow with an error here is active but not running.
 */
export function useActivationError(id: string | null, enabled: boolean) {
  return useSWR<ActivationError | null>(enabled && id !== null ? `/active/error/${id}` : null, () => getActivationError(id ?? ''), {
    revalidateOnFocus: true,
    shouldRetryOnError: false,
  });
}

export function getActivationError(id: string): Promise<ActivationError | null> {
  return restApi.get(`/active/error/${encodeURIComponent(id)}`);
}

export interface RunRequest {
  workflowData: WorkflowBody & { id?: string };
  runData?: Record<string, unknown>;
  startNodes?: string[];
  destinationNode?: string;
}

export function runWorkflow(body: RunRequest): Promise<{ executionId?: string; waitingForWebhook?: boolean }> {
  return restApi.request('POST', '/workflows/run', { ...body });
}

/** Stops waiting for a test webhook call of a workflow (DELETE /test-webhook/:workflowId). */
export function deleteTestWebhook(workflowId: string): Promise<boolean> {
  return restApi.request<boolean>('DELETE', `/test-webhook/${encodeURIComponent(workflowId)}`);
}

