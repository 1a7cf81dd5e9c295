import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSubmit } from './useSubmit';

describe('useSubmit', () => {
  it('is busy while the action runs and stays busy after a success unless told otherwise', async () => {
    let finish: () => void = () => undefined;
    const action = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => useSubmit(action, { onError: 'Failed' }));
    let sent: Promise<void> = Promise.resolve();
    act(() => {
      sent = result.current.submit();
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      finish();
      await sent;
    });
    expect(result.current.busy).toBe(true);

    const idle = renderHook(() => useSubmit(async (value: number) => value, { onError: 'Failed', idleAfterSuccess: true }));
    await act(() => idle.result.current.submit(1));
    expect(idle.result.current.busy).toBe(false);
  });

  it('is idle again when the action fails or answers false, and hands the failure to onError', async () => {
    const onError = vi.fn();
    const failing = renderHook(() => useSubmit(() => Promise.reject(new Error('boom')), { onError }));
    await act(() => failing.result.current.submit());
    expect(failing.result.current.busy).toBe(false);
    expect(onError).toHaveBeenCalledWith(new Error('boom'));

    const cancelled = renderHook(() => useSubmit(async () => false, { onError }));
    await act(() => cancelled.result.current.submit());
    expect(cancelled.result.current.busy).toBe(false);
  });
});
