import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTemplatesSearchState } from './useTemplatesSearchState';

function Probe() {
  const state = useTemplatesSearchState();
  return (
    <div>
      <input aria-label="search" value={state.text} onChange={(e) => state.setText(e.target.value)} />
      <button onClick={() => state.toggle(3)}>cat3</button>
      <button onClick={() => state.toggle(null)}>all</button>
      <button onClick={() => state.clearText()}>clear</button>
      <output data-test-id="query">{JSON.stringify(state.query)}</output>
      <output data-test-id="preselected">{state.preselected.join(',')}</output>
    </div>
  );
}

function renderAt(url: string) {
  const router = createMemoryRouter([{ path: '/templates', element: <Probe /> }], { initialEntries: [url] });
  render(<RouterProvider router={router} />);
  return router;
}

const url = (router: ReturnType<typeof renderAt>) => router.state.location.pathname + router.state.location.search;

describe('templates search state in the URL', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts from the URL and remembers the preselected categories', () => {
    renderAt('/templates?search=invoice&categories=4,2');
    expect(screen.getByLabelText('search')).toHaveValue('invoice');
    expect(screen.getByTestId('query')).toHaveTextContent('{"search":"invoice","categories":[4,2]}');
    expect(screen.getByTestId('preselected')).toHaveTextContent('4,2');
  });

  it('writes the search to the URL 500 ms after the last keystroke', () => {
    const router = renderAt('/templates');
    fireEvent.change(screen.getByLabelText('search'), { target: { value: 'sal' } });
    act(() => vi.advanceTimersByTime(300));
    fireEvent.change(screen.getByLabelText('search'), { target: { value: 'sales' } });
    act(() => vi.advanceTimersByTime(499));
    expect(url(router)).toBe('/templates');
    act(() => vi.advanceTimersByTime(1));
    expect(url(router)).toBe('/templates?search=sales');
    expect(screen.getByTestId('query')).toHaveTextContent('"search":"sales"');
  });

  it('writes categories at once, All clears them, and Back restores the field and the query', async () => {
    const router = renderAt('/templates?search=report');
    fireEvent.click(screen.getByText('cat3'));
    expect(url(router)).toBe('/templates?search=report&categories=3');
    fireEvent.change(screen.getByLabelText('search'), { target: { value: 'weekly' } });
    act(() => vi.advanceTimersByTime(500));
    expect(url(router)).toBe('/templates?search=weekly&categories=3');

    await act(() => router.navigate(-1));
    expect(url(router)).toBe('/templates?search=report&categories=3');
    expect(screen.getByLabelText('search')).toHaveValue('report');
    act(() => vi.advanceTimersByTime(1000));
    expect(url(router)).toBe('/templates?search=report&categories=3');

    fireEvent.click(screen.getByText('all'));
    expect(url(router)).toBe('/templates?search=report');
  });

  it('clears the search at once', () => {
    const router = renderAt('/templates?search=x&categories=1');
    fireEvent.click(screen.getByText('clear'));
    expect(screen.getByLabelText('search')).toHaveValue('');
    expect(url(router)).toBe('/templates?categories=1');
  });
});
