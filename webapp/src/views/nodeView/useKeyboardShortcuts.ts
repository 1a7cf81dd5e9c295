import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { steppedZoom } from '@/core/workflow/canvas';
import { arrowTarget, extendedSelection, type ArrowKey } from '@/core/editor/navigation';
import { STICKY_NOTE_TYPE } from '@/core/workflow/nodeTypes';
import { FIT_VIEW } from './canvas/viewport';
import type { EditorContextValue } from './EditorContext';

/** Debounces of spec 001 §9, in milliseconds. */
export const DEBOUNCE = { arrow: 100, selectAll: 1000, copy: 1000, save: 1000, rename: 1500, delete: 500, paste: 1000 } as const;

export interface ShortcutHandlers {
  save: () => void;
  open: () => void;
  newWorkflow: () => void;
  toggleCreator: () => void;
  closePanels: () => void;
  /** True while the node details panel is open: shortcuts are off then. */
  ndvOpen: () => boolean;
}

/** A dialog is open: its own keys win. Mantine keeps an empty modal root mounted, so look for content. */
function isModalOpen(): boolean {
  return document.querySelector('.mantine-Modal-content') !== null;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Leading-edge debounce: the first call runs, repeats within the window are dropped. */
function useThrottle() {
  const last = useRef(new Map<string, number>());
  return useCallback((key: keyof typeof DEBOUNCE, run: () => void) => {
    const now = performance.now();
    if (now - (last.current.get(key) ?? -Infinity) < DEBOUNCE[key]) return;
    last.current.set(key, now);
    run();
  }, []);
}

/** The canvas keyboard shortcuts of spec 001 §2. */
export function useKeyboardShortcuts(editor: EditorContextValue, handlers: ShortcutHandlers): void {
  const flow = useReactFlow();
  const throttle = useThrottle();
  const latest = useRef({ editor, handlers });
  useLayoutEffect(() => {
    latest.current = { editor, handlers };
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const { editor: ctx, handlers: h } = latest.current;
      if (event.defaultPrevented || isTyping(event.target) || h.ndvOpen()) return;
      if (isModalOpen()) return;
      const { store, actions, readOnly, mode } = ctx;
      const state = store.getState();
      const selected = state.selected;
      const last = selected[selected.length - 1];
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key;
      const lower = key.toLowerCase();
      const handled = () => event.preventDefault();

      if (mod && event.altKey && lower === 'n') {
        handled();
        if (mode !== 'demo') h.newWorkflow();
        return;
      }
      if (mod && lower === 's') {
        handled();
        if (!readOnly) throttle('save', h.save);
        return;
      }
      if (mod && lower === 'o') {
        handled();
        if (mode !== 'demo') h.open();
        return;
      }
      if (mod && lower === 'z') {
        handled();
        if (event.shiftKey) actions.redo();
        else actions.undo();
        return;
      }
      if (mod && lower === 'a') {
        handled();
        throttle('selectAll', () => store.select(state.graph.nodes.map((n) => n.name)));
        return;
      }
      if (mod && (lower === 'c' || lower === 'x')) {
        if (window.getSelection()?.toString()) return;
        handled();
        throttle('copy', () => void actions.copy(lower === 'x'));
        return;
      }
      if (mod) return;

      switch (key) {
        case 'Escape':
          h.closePanels();
          return;
        case 'Tab':
          handled();
          if (!readOnly) h.toggleCreator();
          return;
        case 'Delete':
        case 'Backspace':
          if (selected.length === 0) return;
          handled();
          throttle('delete', () => actions.deleteNodes(selected));
          return;
        case 'F2': {
          const node = state.graph.nodes.find((n) => n.name === last);
          if (!node || node.type === STICKY_NOTE_TYPE) return;
          handled();
          throttle('rename', () => actions.ui.startRename(node.name));
          return;
        }
        case 'Enter': {
          const node = state.graph.nodes.find((n) => n.name === last);
          if (!node || (node.type === STICKY_NOTE_TYPE)) return;
          handled();
          actions.ui.openNode(node.name);
          return;
        }
        case 'd':
          if (selected.length === 0) return;
          handled();
          actions.toggleDisabled(selected);
          return;
        case '+':
        case '=':
          handled();
          void flow.zoomTo(steppedZoom(flow.getZoom(), 'in'));
          return;
        case '-':
        case '_':
          handled();
          void flow.zoomTo(steppedZoom(flow.getZoom(), 'out'));
          return;
        case '0':
          handled();
          void flow.zoomTo(1);
          return;
        case '1':
          handled();
          void flow.fitView(FIT_VIEW);
          return;
        case 'ArrowLeft':
        case 'ArrowRight':
        case 'ArrowUp':
        case 'ArrowDown': {
          if (last === undefined) return;
          handled();
          throttle('arrow', () => {
            if (event.shiftKey && (key === 'ArrowRight' || key === 'ArrowLeft')) {
              store.select(extendedSelection(state.graph, last, key === 'ArrowRight' ? 'downstream' : 'upstream'));
              return;
            }
            const target = arrowTarget(state.graph, last, key as ArrowKey);
            if (target !== null) store.select([target]);
          });
          return;
        }
      }
    };

    let pasteTimer = -Infinity;
    const onPaste = (event: ClipboardEvent) => {
      const { editor: ctx, handlers: h } = latest.current;
      if (isTyping(event.target) || h.ndvOpen() || isModalOpen()) return;
      const text = event.clipboardData?.getData('text/plain') ?? '';
      if (text === '') return;
      event.preventDefault();
      const now = performance.now();
      if (now - pasteTimer < DEBOUNCE.paste) return;
      pasteTimer = now;
      void ctx.actions.paste(text);
    };

    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('paste', onPaste);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('paste', onPaste);
    };
  }, [flow, throttle]);
}
