import { createContext, useContext, useSyncExternalStore } from 'react';
import type { EditorState, EditorStore } from '@/core/editor/store';
import type { NodeTypeDescription, NodeTypeIndex } from '@/core/workflow/nodeTypes';
import type { EditorActions } from './useEditorActions';

export type EditorMode = 'new' | 'existing' | 'execution' | 'demo';

export interface EditorContextValue {
  store: EditorStore;
  types: readonly NodeTypeDescription[];
  index: NodeTypeIndex;
  /** Full descriptions of the types the workflow uses, for parameter and credential issues. */
  details: NodeTypeIndex | null;
  mode: EditorMode;
  /** Only the new- and existing-workflow routes edit (spec 001 §6). */
  readOnly: boolean;
  actions: EditorActions;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditor outside the editor');
  return value;
}

/** Subscribes to one slice of the editor state; the component re-renders when it changes. */
export function useEditorState<T>(select: (state: EditorState) => T): T {
  const { store } = useEditor();
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}
