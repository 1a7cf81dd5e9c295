import { useMemo } from 'react';
import { parseTemplate } from '@/core/expressions/template';
import classes from './expression.module.css';

/** Segment states by code, as the expression editor colours them. */
export type SegmentStates = ReadonlyMap<string, 'valid' | 'invalid'>;

/** A template with its `{{ }}` segments marked; states colour them valid (green) or invalid (red). */
export function HighlightedTemplate({ template, states }: { template: string; states?: SegmentStates }) {
  const segments = useMemo(() => parseTemplate(template), [template]);
  return (
    <>
      {segments.map((segment) =>
        segment.kind === 'text' ? (
          <span key={segment.start}>{segment.text}</span>
        ) : (
          <span key={segment.start} className={classes.segment} data-state={states?.get(segment.code) ?? 'pending'}>
            {template.slice(segment.start, segment.end)}
          </span>
        ),
      )}
    </>
  );
}
