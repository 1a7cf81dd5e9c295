import { useEffect } from 'react';
import { runOutcome } from '@/core/editor/execution';
import type { EditorStore } from '@/core/editor/store';

const SYMBOL = { idle: '▶️', running: '🔄', warning: '⚠️' } as const;

/** Page title with the workflow name and a warning, running or idle symbol (spec 001 §2). */
export function usePageTitle(store: EditorStore): void {
  useEffect(() => {
    const update = () => {
      const { meta, execution } = store.getState();
      const failed = execution.result !== null && ['nodeError', 'failed'].includes(runOutcome(execution.result).kind);
      const symbol = execution.status !== 'idle' ? SYMBOL.running : failed ? SYMBOL.warning : SYMBOL.idle;
      const title = `Flowmill - ${symbol} ${meta.name}`;
      // Every store change calls this (selection, each drag end); writing the same title again
      // still costs the browser a title update.
      if (document.title !== title) document.title = title;
    };
    update();
    const off = store.subscribe(update);
    return () => {
      off();
      document.title = 'Flowmill';
    };
  }, [store]);
}
