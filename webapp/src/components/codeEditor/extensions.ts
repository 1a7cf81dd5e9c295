import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionSource } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript, localCompletionSource } from '@codemirror/lang-javascript';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, ensureSyntaxTree, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, placeholder as placeholderText, type DecorationSet } from '@codemirror/view';
import { completionsAt, openSegmentStart, type CompletionData, type CompletionKind } from '@/core/codeEditor/completions';
import { parseTemplate } from '@/core/expressions/template';

export type CodeEditorMode = 'javascript' | 'json' | 'expression';

/** Segment states by code, as the expression editor colours them. */
export type SegmentStates = ReadonlyMap<string, 'valid' | 'invalid'>;

const TYPES: Record<CompletionKind, string> = { variable: 'variable', function: 'function', method: 'method', property: 'property', field: 'property', node: 'class' };

/**
 * n8n's special variables as a CodeMirror completion source. In expressions only the text inside
 * the `{{ }}` segment around the cursor counts.
 */
export function specialVariables(data: () => CompletionData, expression: boolean): CompletionSource {
  return (context) => {
    let before: string;
    let offset: number;
    if (expression) {
      const text = context.state.sliceDoc(0, context.pos);
      const start = openSegmentStart(text);
      if (start === null) return null;
      before = text.slice(start);
      offset = start;
    } else {
      const line = context.state.doc.lineAt(context.pos);
      before = line.text.slice(0, context.pos - line.from);
      offset = line.from;
    }
    const found = completionsAt(before, data());
    if (!found) return null;
    // CodeMirror sorts options of equal match by label; the boost keeps the order given (an
    // input's fields as the item has them), and is too small to outrank a better match.
    const options = found.options.map((option, index): Completion => {
      const out: Completion = { label: option.label, type: TYPES[option.kind], detail: option.detail, boost: -Math.min(index, 99) };
      const apply = option.apply;
      if (apply?.startsWith('[')) {
        // A field that is no identifier replaces the dot before it: `$json["a b"]`.
        out.apply = (view, _completion, from, to) => view.dispatch({ changes: { from: from - 1, to, insert: apply }, selection: { anchor: from - 1 + apply.length } });
      } else if (apply !== undefined) {
        out.apply = apply;
      }
      return out;
    });
    return { from: offset + found.from, options, validFor: /^[\w$ ]*$/ };
  };
}

/** Syntax errors of the JavaScript syntax tree as lint markers. */
const javascriptSyntaxLinter = linter(
  (view) => {
    const { state } = view;
    const tree = ensureSyntaxTree(state, state.doc.length, 1000);
    if (!tree) return [];
    const out: Diagnostic[] = [];
    tree.iterate({
      enter: (node) => {
        if (!node.type.isError) return;
        const length = state.doc.length;
        const from = node.from < length ? node.from : Math.max(0, length - 1);
        const to = Math.min(length, Math.max(node.to, from + 1));
        const unexpected = state.sliceDoc(from, to).trim();
        out.push({ from, to, severity: 'error', source: 'syntax', message: node.from === node.to || !unexpected ? 'Syntax error: something is missing here' : `Syntax error: unexpected "${unexpected.slice(0, 20)}"` });
      },
    });
    return out;
  },
  { delay: 300 },
);

const setSegmentStates = StateEffect.define<SegmentStates>();

/** Marks each `{{ }}` segment, with its state (valid, invalid, pending) from the preview. */
const segmentMarks = StateField.define<{ states: SegmentStates; marks: DecorationSet }>({
  create: (state) => ({ states: new Map(), marks: segmentDecorations(state.doc.toString(), new Map()) }),
  update: (value, tr) => {
    let states = value.states;
    for (const effect of tr.effects) if (effect.is(setSegmentStates)) states = effect.value;
    if (!tr.docChanged && states === value.states) return value;
    return { states, marks: segmentDecorations(tr.state.doc.toString(), states) };
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.marks),
});

function segmentDecorations(template: string, states: SegmentStates): DecorationSet {
  const ranges = parseTemplate(template)
    .filter((segment) => segment.kind === 'code' && segment.end > segment.start)
    .map((segment) => Decoration.mark({ class: 'cm-fm-segment', attributes: { 'data-state': states.get(segment.kind === 'code' ? segment.code : '') ?? 'pending' } }).range(segment.start, segment.end));
  return Decoration.set(ranges, true);
}

/** The effect that recolours the segments of an expression editor. */
export function segmentStatesEffect(states: SegmentStates) {
  return setSegmentStates.of(states);
}

const theme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-white)' },
  '&.cm-editor': { maxHeight: 'var(--cm-max-height, none)' },
  '.cm-content, .cm-gutter': { minHeight: 'var(--cm-min-height, auto)' },
  '&.cm-focused': { outline: 'none', borderColor: 'var(--mantine-primary-color-filled)' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', lineHeight: '1.55' },
  '.cm-gutters': { background: 'var(--mantine-color-gray-0)', borderRight: '1px solid var(--mantine-color-gray-3)', color: 'var(--mantine-color-gray-6)' },
  '.cm-activeLine': { background: 'rgba(34, 139, 230, 0.05)' },
  '.cm-activeLineGutter': { background: 'rgba(34, 139, 230, 0.1)' },
  '.cm-fm-segment': { borderRadius: '3px', padding: '1px 0' },
  '.cm-fm-segment[data-state="valid"]': { background: 'var(--mantine-color-green-1)', color: 'var(--mantine-color-green-9)' },
  '.cm-fm-segment[data-state="invalid"]': { background: 'var(--mantine-color-red-1)', color: 'var(--mantine-color-red-9)' },
  '.cm-fm-segment[data-state="pending"]': { background: 'var(--mantine-color-gray-1)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { background: 'var(--mantine-primary-color-filled)' },
  '.cm-completionDetail': { marginLeft: '12px', color: 'var(--mantine-color-gray-6)', fontStyle: 'normal', fontSize: '12px' },
});

export interface ExtensionOptions {
  mode: CodeEditorMode;
  readOnly: boolean;
  placeholder?: string;
  data: () => CompletionData;
  onChange: (value: string) => void;
}

/** Everything an editor of the given mode is made of. */
export function editorExtensions({ mode, readOnly, placeholder, data, onChange }: ExtensionOptions): Extension[] {
  const common: Extension[] = [
    history(),
    drawSelection(),
    EditorState.allowMultipleSelections.of(true),
    bracketMatching(),
    closeBrackets(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    keymap.of([...closeBracketsKeymap, ...completionKeymap, ...defaultKeymap, ...historyKeymap]),
    EditorState.readOnly.of(readOnly),
    EditorView.editable.of(!readOnly),
    theme,
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onChange(update.state.doc.toString());
    }),
  ];
  if (placeholder) common.push(placeholderText(placeholder));
  if (mode === 'expression') {
    return [...common, EditorView.lineWrapping, segmentMarks, autocompletion({ override: [specialVariables(data, true)], icons: false, interactionDelay: 0 })];
  }
  // Tab indents in code (Escape, then Tab moves on, CodeMirror's rule); in an expression Tab moves on.
  const code: Extension[] = [...common, keymap.of([indentWithTab]), lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), foldGutter(), indentOnInput(), lintGutter()];
  if (mode === 'json') return [...code, json(), linter(jsonParseLinter(), { delay: 300 })];
  return [...code, javascript(), javascriptSyntaxLinter, autocompletion({ override: [specialVariables(data, false), localCompletionSource], icons: false, interactionDelay: 0 })];
}
