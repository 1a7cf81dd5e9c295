export type { CodeEditorHandle, CodeEditorProps } from './CodeEditor';
export type { CodeEditorMode, SegmentStates } from './extensions';
export { LazyCodeEditor } from './LazyCodeEditor';
