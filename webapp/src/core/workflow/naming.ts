/**
 * A name not in use: the name itself when free, else the name with an increasing numeric suffix
 * ("Set" → "Set1", "Set1" → "Set2"), as n8n's editor names nodes.
 */
export function uniqueName(name: string, used: ReadonlySet<string>): string {
  if (!used.has(name)) return name;
  const match = /^(.*\D)?(\d*)$/.exec(name);
  const base = match?.[1] ?? '';
  const digits = match?.[2] ?? '';
  let index = digits === '' ? 1 : Number.parseInt(digits, 10);
  let candidate = `${base}${index}`;
  while (used.has(candidate)) {
    index += 1;
    candidate = `${base}${index}`;
  }
  return candidate;
}

export const WORKFLOW_NAME_MAX_LENGTH = 128;
export const DEFAULT_WORKFLOW_NAME = 'My workflow';
export const COPY_SUFFIX = ' copy';

export type NameCheck = { ok: true; name: string } | { ok: false; reason: 'empty' | 'tooLong' };

/** Workflow name rule (spec 001 §5): trimmed, 1 to 128 characters. */
export function checkWorkflowName(raw: string): NameCheck {
  const name = raw.trim();
  if (name === '') return { ok: false, reason: 'empty' };
  if ([...name].length > WORKFLOW_NAME_MAX_LENGTH) return { ok: false, reason: 'tooLong' };
  return { ok: true, name };
}

/** The duplicate dialog's proposal: the name with " copy", cut so it stays within the limit. */
export function copyName(name: string): string {
  const room = WORKFLOW_NAME_MAX_LENGTH - COPY_SUFFIX.length;
  const chars = [...name];
  const base = chars.length > room ? chars.slice(0, room).join('') : name;
  return `${base}${COPY_SUFFIX}`;
}

/** Download file name: every non-alphanumeric character becomes "_"; unnamed is unsaved_workflow. */
export function downloadFileName(workflowName: string | null | undefined): string {
  const name = (workflowName ?? '').trim();
  const base = name === '' ? 'unsaved_workflow' : name.replace(/[^a-z0-9]/gi, '_');
  return `${base}.json`;
}

/**
 * Shortens a name for narrow places: longer names keep their start and their last `keep`
 * characters around an ellipsis (spec 001 §9: default 25, last 4 kept).
 */
export function shortenName(name: string, limit = 25, keep = 4): string {
  const chars = [...name];
  if (chars.length <= limit) return name;
  return `${chars.slice(0, limit - keep - 1).join('')}…${chars.slice(-keep).join('')}`;
}

/** Screen-width breakpoints (spec 001 §9). */
export const BREAKPOINT_SM = 768;
export const BREAKPOINT_MD = 992;

/** How many characters of the workflow name the header shows at a window width: 15, 25 or 50. */
export function headerNameLimit(width: number): number {
  if (width < BREAKPOINT_SM) return 15;
  if (width < BREAKPOINT_MD) return 25;
  return 50;
}
