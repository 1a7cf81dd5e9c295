import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SIDEBAR_EXPANDED_KEY, useSidebarExpanded } from './sidebarExpanded';

describe('sidebar expanded state', () => {
  afterEach(() => window.localStorage.clear());

  it('starts collapsed and remembers a toggle for the next page', () => {
    const first = renderHook(() => useSidebarExpanded());
    expect(first.result.current[0]).toBe(false);
    act(() => first.result.current[1](true));
    expect(first.result.current[0]).toBe(true);
    expect(window.localStorage.getItem(SIDEBAR_EXPANDED_KEY)).toBe('true');
    first.unmount();

    const next = renderHook(() => useSidebarExpanded());
    expect(next.result.current[0]).toBe(true);
    act(() => next.result.current[1](false));
    expect(renderHook(() => useSidebarExpanded()).result.current[0]).toBe(false);
  });
});
