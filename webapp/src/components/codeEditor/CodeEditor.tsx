import { EditorView } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { useEffect, useImperativeHandle, useLayoutEffect, useRef, type KeyboardEvent, type Ref } from 'react';
import type { CompletionData } from '@/core/codeEditor/completions';
import { editorExtensions, segmentStatesEffect, type CodeEditorMode, type SegmentStates } from './extensions';

/** What a parent can do with a mounted editor. */
export interface CodeEditorHandle {
  /** The selected range (the cursor when empty). */
  selection: () => { from: number; to: number };
  /** Focuses the editor and puts the cursor at an offset. */
  focusAt: (offset: number) => void;
}

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  mode: CodeEditorMode;
  readOnly?: boolean;
  /** Variables, input fields and node names offered as completions (JavaScript and expressions). */
  completions?: () => CompletionData;
  /** Expression mode: the colour of each `{{ }}` segment by its code. */
  segmentStates?: SegmentStates;
  placeholder?: string;
  autoFocus?: boolean;
  /** CSS height limits of the scrolling area. */
  minHeight?: string;
  maxHeight?: string;
  label: string;
  /** Test id of the editable area (the host element gets `<testId>-host`). */
  testId?: string;
  ref?: Ref<CodeEditorHandle>;
}

/**
 * Attributes of the editable element. In code, Escape belongs to the editor (it closes the
 * completion list, and Escape then Tab leaves): Mantine's dialogs leave an Escape alone whose
 * target carries data-mantine-stop-propagation. In an expression, Escape closes the dialog.
 */
function contentAttributes(mode: CodeEditorMode, label: string, testId: string | undefined): Record<string, string> {
  const out: Record<string, string> = { 'aria-label': label };
  if (testId) out['data-test-id'] = testId;
  if (mode !== 'expression') out['data-mantine-stop-propagation'] = 'true';
  return out;
}

const NO_DATA: CompletionData = { inputFields: [], nodeNames: [], nodeFields: {} };
const noData = () => NO_DATA;

/**
 * A CodeMirror 6 editor for JavaScript (line numbers, Tab indents, brackets, syntax lint markers,
 * n8n's variables as completions), JSON (with lint) or expressions (`{{ }}` segments highlighted).
 * Keys typed here stay here: the node view and canvas shortcuts do not see them (Escape in an
 * expression aside, which closes its dialog).
 */
export default function CodeEditor({ value, onChange, mode, readOnly = false, completions, segmentStates, placeholder, autoFocus = false, minHeight, maxHeight, label, testId, ref }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, completions: completions ?? noData });
  useLayoutEffect(() => {
    latest.current = { onChange, completions: completions ?? noData };
  });

  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          editorExtensions({ mode, readOnly, placeholder, data: () => latest.current.completions(), onChange: (next) => latest.current.onChange(next) }),
          EditorView.contentAttributes.of(contentAttributes(mode, label, testId)),
        ],
      }),
    });
    view.current = editor;
    if (autoFocus) {
      editor.focus();
      editor.dispatch({ selection: { anchor: editor.state.doc.length } });
    }
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is built once per mode; value changes arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode, readOnly]);

  // A value changed from outside (reset, insertion, mode switch) replaces the text.
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  useEffect(() => {
    if (view.current && segmentStates) view.current.dispatch({ effects: segmentStatesEffect(segmentStates) });
  }, [segmentStates]);

  useImperativeHandle(ref, () => ({
    selection: () => {
      const main = view.current?.state.selection.main;
      return main ? { from: main.from, to: main.to } : { from: value.length, to: value.length };
    },
    focusAt: (offset) => {
      const editor = view.current;
      if (!editor) return;
      editor.focus();
      editor.dispatch({ selection: { anchor: Math.min(offset, editor.state.doc.length) }, scrollIntoView: true });
    },
  }));

  const keepKeys = (event: KeyboardEvent) => {
    // Escape in an expression closes its dialog unless it closed the completion list; in code it
    // stays (Escape, then Tab leaves the editor).
    if (mode === 'expression' && event.key === 'Escape' && !event.defaultPrevented) return;
    event.stopPropagation();
  };
  return <div ref={host} onKeyDown={keepKeys} className="fm-code-editor" style={{ ['--cm-min-height' as string]: minHeight ?? 'auto', ['--cm-max-height' as string]: maxHeight ?? 'none' }} data-test-id={testId ? `${testId}-host` : undefined} data-mode={mode} />;
}
