import { useEffect, useState } from 'react';
import { visibleRange, type VirtualRange } from '@/core/runData/virtualRange';

/** Height assumed before the scroll container has been measured (and in test environments). */
const FALLBACK_HEIGHT = 800;

/**
 * Windows a list of fixed-height rows inside a scroll container: returns the rows to render and
 * a callback ref for the container. When disabled every row is rendered.
 */
export function useVirtualRange(count: number, rowHeight: number, enabled: boolean): [VirtualRange, (element: HTMLElement | null) => void] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [viewport, setViewport] = useState({ top: 0, height: FALLBACK_HEIGHT });

  useEffect(() => {
    if (!element || !enabled) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      const next = { top: element.scrollTop, height: element.clientHeight || FALLBACK_HEIGHT };
      setViewport((current) => (current.top === next.top && current.height === next.height ? current : next));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(read);
    };
    schedule();
    element.addEventListener('scroll', schedule, { passive: true });
    const observer = new ResizeObserver(schedule);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', schedule);
      observer.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [element, enabled]);

  const range = enabled ? visibleRange(count, rowHeight, viewport.top, viewport.height) : { start: 0, end: count, before: 0, after: 0 };
  return [range, setElement];
}
