import { useEffect, useEffectEvent, useRef } from 'react';
import { InvalidWorkflowError, readFrameCommand, type FrameMessage } from '@/core/editor/frame';
import type { EditorStore } from '@/core/editor/store';

function post(message: FrameMessage): void {
  if (window.parent !== window) window.parent.postMessage(JSON.stringify(message), '*');
}

/**
 * The frame protocol: the demo view tells the host it is ready (with the version), opens workflows
 * the host sends and answers `error` for invalid ones; any framed editor reports the node panel
 * opening and closing (openNDV, closeNDV).
 */
export function useDemoFrame(enabled: boolean, store: EditorStore, version: string, ndvNode: string | null, onOpened: () => void): void {
  const opened = useEffectEvent(onOpened);

  useEffect(() => {
    if (!enabled) return undefined;
    const onMessage = (event: MessageEvent) => {
      try {
        const workflow = readFrameCommand(event.data);
        if (!workflow) return;
        store.load({ name: workflow.name ?? '' }, { nodes: workflow.nodes, connections: workflow.connections });
        requestAnimationFrame(() => opened());
      } catch (error) {
        post({ command: 'error' });
        if (!(error instanceof InvalidWorkflowError)) throw error;
        console.error(error.message);
      }
    };
    window.addEventListener('message', onMessage);
    post({ command: 'n8nReady', version });
    return () => window.removeEventListener('message', onMessage);
  }, [enabled, store, version]);

  const wasOpen = useRef(false);
  useEffect(() => {
    const open = ndvNode !== null;
    if (open !== wasOpen.current) post({ command: open ? 'openNDV' : 'closeNDV' });
    wasOpen.current = open;
  }, [ndvNode]);
}
