import { parseTemplate } from './template';

/** A template after an insertion, with where the cursor goes. */
export interface Insertion {
  value: string;
  cursor: number;
}

/**
 * Inserts a variable into a template (without its leading `=`) in place of the selection
 * `start`–`end`: as `{{variable}}`, or bare when the selection lies inside a `{{ }}` segment.
 * The cursor goes right after the inserted text.
 */
export function insertVariable(template: string, start: number, end: number, variable: string): Insertion {
  const from = Math.max(0, Math.min(start, end, template.length));
  const to = Math.min(Math.max(start, end), template.length);
  const inside = parseTemplate(template).some((s) => s.kind === 'code' && from >= s.start + 2 && to <= s.end - 2);
  const text = inside ? variable : `{{${variable}}}`;
  return { value: template.slice(0, from) + text + template.slice(to), cursor: from + text.length };
}
