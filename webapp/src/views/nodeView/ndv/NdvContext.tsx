import { createContext, useContext } from 'react';
import type { CompletionData } from '@/core/codeEditor/completions';
import type { JsonValue } from '@/core/workflow/types';

/** What evaluating an expression gave: a value, or why there is none. */
export type ExpressionResult =
  | { ok: true; value: JsonValue | undefined }
  | { ok: false; kind: 'invalid' | 'notFound'; message: string };

/** Asks for the expression editor dialog on one parameter. */
export interface ExpressionEditorRequest {
  /** Where the value lives on the node, e.g. `parameters.values.string[0].value`. */
  path: string;
  /** The expression, with its leading `=`. */
  value: string;
  onChange: (value: string) => void;
}

/**
 * Services the node details view offers the panels inside it: the open node, the read-only flag,
 * the expression editor, and the session id of the view.
 */
export interface NdvServices {
  nodeName: string;
  readOnly: boolean;
  /** `ndv-` followed by a random id, new each time the view opens (spec 001 §4). */
  sessionId: string;
  openExpressionEditor: (request: ExpressionEditorRequest) => void;
  /** Evaluates an expression (with its leading `=`) for the open node as the engine would. */
  resolveExpression: (expression: string) => Promise<ExpressionResult>;
  /** Runs the workflow up to the given node (execute previous nodes, execute node). */
  runTo: (nodeName: string) => void;
  /** What code and expression completions offer for the open node, read when they are asked for. */
  completionData: () => CompletionData;
}

export const NdvContext = createContext<NdvServices | null>(null);

export function useNdv(): NdvServices {
  const value = useContext(NdvContext);
  if (!value) throw new Error('useNdv outside the node details view');
  return value;
}
