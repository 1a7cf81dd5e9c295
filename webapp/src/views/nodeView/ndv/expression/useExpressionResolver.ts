import { useCallback } from 'react';
import { evaluateExpression, type EvaluateExpressionBody } from '@/api/expressions';
import { runDataForPreview } from '@/core/expressions/requestData';
import { ResolveCache } from '@/core/expressions/resolveCache';
import type { EvaluationResult } from '@/core/expressions/result';
import type { EditorState } from '@/core/editor/store';
import { useEditor } from '@/views/nodeView/EditorContext';
import { workflowBody } from '@/views/nodeView/workflowData';

/** Identical previews of the same workflow and run data within this time share one call (ms). */
const CACHE_TTL = 5000;
const cache = new ResolveCache<EditorState['graph'], EvaluationResult>(CACHE_TTL);

/** A number per object, so the identity of run data and workflow fields can be part of a cache key. */
const ids = new WeakMap<object, number>();
let nextId = 0;
function idOf(value: object | null): number {
  if (value === null) return -1;
  let id = ids.get(value);
  if (id === undefined) {
    id = nextId++;
    ids.set(value, id);
  }
  return id;
}

function requestBody(state: EditorState, nodeName: string, expression: string): EvaluateExpressionBody {
  const { name, nodes = [], connections = {}, settings } = workflowBody(state);
  return {
    workflowData: { id: state.meta.id ?? undefined, name, active: state.meta.active, nodes, connections, settings },
    runData: runDataForPreview(state.execution.runData),
    nodeName,
    expression,
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Evaluates expressions (with their leading `=`) for a node on the server, with the open
 * workflow and the run data the editor holds, for item 0 of run 0. A call that fails reads as
 * an invalid expression with the error's message.
 */
export function useExpressionResolver(nodeName: string): (expression: string) => Promise<EvaluationResult> {
  const { store } = useEditor();
  return useCallback(
    (expression: string) => {
      const state = store.getState();
      const key = [idOf(state.meta), idOf(state.execution.runData), nodeName, expression].join('\u0000');
      return cache.get(state.graph, key, () =>
        evaluateExpression(requestBody(state, nodeName, expression)).catch((error: unknown): EvaluationResult => ({ ok: false, kind: 'invalid', message: errorText(error) })),
      );
    },
    [store, nodeName],
  );
}
