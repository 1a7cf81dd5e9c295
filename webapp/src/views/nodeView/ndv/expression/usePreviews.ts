import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { planSegments, type PlannedSegment } from '@/core/expressions/plan';
import type { EvaluationResult } from '@/core/expressions/result';
import { useEditorState } from '@/views/nodeView/EditorContext';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';

/** Expression previews wait this long after the last change (spec 001 §9, ms). */
export const PREVIEW_DEBOUNCE = 500;

/**
 * Runs `load` for the key, and again 500 ms after the key, the workflow or its run data last
 * changed; gives the last answer with the key it belongs to, null until the first one. A new
 * `load` function alone starts no call, so callers need not keep it stable.
 */
function useDebouncedLoad<T>(key: string, load: (key: string) => Promise<T>): { key: string; value: T } | null {
  const graph = useEditorState((s) => s.graph);
  const runData = useEditorState((s) => s.execution.runData);
  const inputs = useMemo(() => ({ key, graph, runData }), [key, graph, runData]);
  const [debounced] = useDebouncedValue(inputs, PREVIEW_DEBOUNCE);
  const [answer, setAnswer] = useState<{ key: string; value: T } | null>(null);
  const latestLoad = useRef(load);
  useLayoutEffect(() => {
    latestLoad.current = load;
  });
  useEffect(() => {
    let current = true;
    void latestLoad.current(debounced.key).then((value) => {
      if (current) setAnswer({ key: debounced.key, value });
    });
    return () => {
      current = false;
    };
  }, [debounced]);
  return answer;
}

/** The value of an expression for the open node, evaluated 500 ms after it last changed. */
export function useExpressionPreview(expression: string): EvaluationResult | null {
  const { resolveExpression } = useNdv();
  return useDebouncedLoad(expression, resolveExpression)?.value ?? null;
}

export interface SegmentPreview {
  /** The expression the segments belong to (it trails the text being typed by the debounce). */
  expression: string;
  segments: PlannedSegment[];
  /** Per segment: the result of a code segment, null for text. */
  results: Array<EvaluationResult | null>;
}

/** Each `{{ }}` segment of an expression evaluated on its own, 500 ms after the expression last changed. */
export function useSegmentPreview(expression: string): SegmentPreview | null {
  const { resolveExpression } = useNdv();
  const load = async (key: string) => {
    const segments = planSegments(key);
    const results = await Promise.all(segments.map((p) => (p.expression === undefined ? null : resolveExpression(p.expression))));
    return { expression: key, segments, results };
  };
  return useDebouncedLoad(expression, load)?.value ?? null;
}
