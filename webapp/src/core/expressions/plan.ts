import { isLoneSegment, parseTemplate, templateOf, type TemplateSegment } from './template';

/** A segment of a template with the expression that evaluates it on its own, for code segments. */
export interface PlannedSegment {
  segment: TemplateSegment;
  /** `={{code}}`, or the whole expression when it is one segment (so it keeps its type). */
  expression?: string;
}

/** Splits an expression (with its `=`) into segments, each code segment with the expression that evaluates it. */
export function planSegments(expression: string): PlannedSegment[] {
  const template = templateOf(expression);
  const segments = parseTemplate(template);
  const lone = isLoneSegment(segments);
  return segments.map((segment) => (segment.kind === 'code' ? { segment, expression: lone ? `=${template}` : `={{${segment.code}}}` } : { segment }));
}
