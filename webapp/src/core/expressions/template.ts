/**
 * Parameter expressions (`=` followed by a template whose `{{ }}` segments are JavaScript), split
 * the way the server evaluates them, for highlighting and per-segment previews.
 */

export type TemplateSegment =
  | { kind: 'text'; text: string; start: number; end: number }
  | { kind: 'code'; code: string; start: number; end: number };

/** Whether a parameter value is an expression (a string starting with `=`). */
export function isExpression(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('=');
}

/** The template of an expression: the value without its leading `=`. */
export function templateOf(expression: string): string {
  return expression.startsWith('=') ? expression.slice(1) : expression;
}

function skipString(src: string, from: number, quote: string): number {
  for (let i = from + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === quote) return i;
  }
  return -1;
}

/** The index of the `}}` that closes code starting at `from`, outside strings and inner braces; -1 if none. */
function closingBraces(src: string, from: number): number {
  let depth = 0;
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || c === '`') {
      const end = skipString(src, i, c);
      if (end < 0) return -1;
      i = end;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      if (depth === 0 && src[i + 1] === '}') return i;
      if (depth > 0) depth--;
    }
  }
  return -1;
}

/**
 * Splits a template (without the leading `=`) into text and `{{ }}` code segments. Offsets are
 * positions in the template; a code segment spans its braces. An unclosed `{{` stays text.
 */
export function parseTemplate(template: string): TemplateSegment[] {
  const segments: TemplateSegment[] = [];
  let textStart = 0;
  let i = 0;
  const pushText = (end: number) => {
    if (end > textStart) segments.push({ kind: 'text', text: template.slice(textStart, end), start: textStart, end });
  };
  while (i < template.length) {
    const open = template.indexOf('{{', i);
    if (open < 0) break;
    const close = closingBraces(template, open + 2);
    if (close < 0) break;
    pushText(open);
    segments.push({ kind: 'code', code: template.slice(open + 2, close), start: open, end: close + 2 });
    i = close + 2;
    textStart = i;
  }
  pushText(template.length);
  return segments;
}

/** Whether the template is one code segment with only whitespace around it (its value keeps its type). */
export function isLoneSegment(segments: readonly TemplateSegment[]): boolean {
  const codes = segments.filter((s) => s.kind === 'code').length;
  return codes === 1 && segments.every((s) => s.kind === 'code' || s.text.trim() === '');
}
