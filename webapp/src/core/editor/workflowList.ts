import type { WorkflowSummary } from '@/core/workflow/types';

export interface WorkflowListFilter {
  name: string;
  tagIds: readonly string[];
}

export type WorkflowSortKey = 'name' | 'createdAt' | 'updatedAt';
export interface WorkflowSort {
  key: WorkflowSortKey;
  direction: 'asc' | 'desc';
}

/** The open dialog's default order: most recently updated first (spec 001 §9). */
export const DEFAULT_WORKFLOW_SORT: WorkflowSort = { key: 'updatedAt', direction: 'desc' };

/** Name contains the text (any case, trimmed) and the workflow carries every chosen tag. */
export function filterWorkflows(workflows: readonly WorkflowSummary[], filter: WorkflowListFilter): WorkflowSummary[] {
  const needle = filter.name.trim().toLowerCase();
  return workflows.filter((workflow) => {
    if (needle !== '' && !workflow.name.toLowerCase().includes(needle)) return false;
    const tags = new Set(workflow.tags.map((tag) => tag.id));
    return filter.tagIds.every((id) => tags.has(id));
  });
}

export function sortWorkflows(workflows: readonly WorkflowSummary[], sort: WorkflowSort): WorkflowSummary[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...workflows].sort((a, b) => {
    const order = sort.key === 'name' ? a.name.localeCompare(b.name) : Date.parse(a[sort.key]) - Date.parse(b[sort.key]);
    return sign * order;
  });
}

/** Tags shown in a row and how many more are hidden behind '+N'. */
export function visibleTags<T>(tags: readonly T[], limit: number): { shown: T[]; hidden: number } {
  return { shown: tags.slice(0, limit), hidden: Math.max(0, tags.length - limit) };
}
