import { Skeleton } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { CodeEditorProps } from './CodeEditor';

// CodeMirror is a chunk of its own, loaded when the first editor opens, so the canvas does not wait for it.
const CodeEditor = lazy(() => import('./CodeEditor'));

/** The code editor, loaded on first use; a placeholder of its size shows meanwhile. */
export function LazyCodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<Skeleton height={props.minHeight ?? 120} radius="sm" data-test-id="code-editor-loading" />}>
      <CodeEditor {...props} />
    </Suspense>
  );
}
