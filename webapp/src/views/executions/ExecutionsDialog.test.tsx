import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentExecution, pastExecution } from '@/core/executions/testExecutions';
import type { ExecutionSummary } from '@/core/executions/types';
import { renderWithProviders } from '@/test/renderApp';
import { ExecutionsDialog } from './ExecutionsDialog';

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

const WORKFLOWS = [
  { id: '2', name: 'Beta', active: false, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z', tags: [] },
  { id: '1', name: 'alpha', active: true, createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-01T00:00:00Z', tags: [] },
];

/** Past executions 12 (newest) down to 1; odd ids failed, even ids succeeded. */
const PAST: ExecutionSummary[] = Array.from({ length: 12 }, (_, i) => {
  const id = String(12 - i);
  return pastExecution(id, { finished: Number(id) % 2 === 0, workflowId: '1', workflowName: 'alpha' });
});

let calls: Call[] = [];
let current: ExecutionSummary[] = [];
let past: ExecutionSummary[] = [];

function answer(method: string, path: string, query: URLSearchParams): unknown {
  if (path === '/rest/workflows') return WORKFLOWS;
  if (path === '/rest/executions-current') return current.map((execution) => ({ ...execution, stoppedAt: null }));
  if (path === '/rest/executions' && method === 'GET') {
    const filter = JSON.parse(query.get('filter') ?? '{}') as { finished?: boolean; workflowId?: string };
    const limit = Number(query.get('limit'));
    const lastId = query.get('lastId');
    const matching = past.filter((execution) => (filter.finished === undefined || execution.finished === filter.finished) && (!filter.workflowId || execution.workflowId === filter.workflowId));
    const results = matching.filter((execution) => lastId === null || Number(execution.id) < Number(lastId)).slice(0, limit);
    return { results, count: matching.length, estimated: false };
  }
  if (path === '/rest/executions/delete') return true;
  throw new Error(`unexpected call ${method} ${path}`);
}

function renderDialog(onClose = vi.fn()) {
  renderWithProviders(
    <MemoryRouter>
      <ExecutionsDialog onClose={onClose} />
    </MemoryRouter>,
  );
  return onClose;
}

const rowIds = () => screen.queryAllByTestId('execution-list-item').map((row) => row.getAttribute('data-execution-id'));
/** Page requests of past executions (auto refreshes ask for 30). */
const pastCalls = () => calls.filter((call) => call.path === '/rest/executions' && call.method === 'GET' && call.query.get('limit') === '10');

async function chooseOption(testId: string, option: string) {
  fireEvent.click(screen.getByTestId(testId));
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

// Each test renders the full dialog with its menus and tooltips, which is slow in jsdom.
describe('executions dialog', { timeout: 20_000 }, () => {
  beforeEach(() => {
    calls = [];
    current = [currentExecution('13', { workflowId: '1', workflowName: 'alpha' })];
    past = PAST;
    // jsdom has no scrolling; the select's dropdown scrolls its options into view.
    Element.prototype.scrollIntoView = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input, init) => {
        const url = new URL(String(input), 'http://localhost');
        const method = init?.method ?? 'GET';
        calls.push({ method, path: url.pathname, query: url.searchParams, body: init?.body ? JSON.parse(String(init.body)) : undefined });
        const data = answer(method, url.pathname, url.searchParams);
        return new Response(JSON.stringify({ data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('refreshes every 4 s with the newest 30 past executions and merges them into the list', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'], shouldAdvanceTime: true });
    renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));
    current = [];
    past = [pastExecution('13', { finished: true, workflowId: '1', workflowName: 'alpha' }), ...PAST];
    vi.advanceTimersByTime(4000);
    await waitFor(() => expect(rowIds()).toHaveLength(13));
    const refresh = calls.find((call) => call.query.get('limit') === '30');
    expect(JSON.parse(refresh?.query.get('filter') ?? '')).toEqual({});
    expect(rowIds()).toEqual(['13', '12', '11', '10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
    expect(within(screen.getAllByTestId('execution-list-item')[0] as HTMLElement).getByTestId('execution-status')).toHaveAttribute('data-status', 'success');

    fireEvent.click(screen.getByTestId('execution-auto-refresh-checkbox'));
    const before = calls.length;
    vi.advanceTimersByTime(8000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(before);
  });

  it('lists the running execution first and the first page of 10 past ones, then loads more by lastId', async () => {
    renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));
    expect(rowIds()).toEqual(['13', '12', '11', '10', '9', '8', '7', '6', '5', '4', '3']);
    expect(screen.getByTestId('executions-count')).toHaveTextContent('11 of 13');
    const first = pastCalls()[0];
    expect(first?.query.get('limit')).toBe('10');
    expect(JSON.parse(first?.query.get('filter') ?? '')).toEqual({});
    const running = screen.getAllByTestId('execution-list-item')[0] as HTMLElement;
    expect(within(running).getByTestId('execution-status')).toHaveAttribute('data-status', 'running');
    expect(within(running).queryByTestId('select-execution-checkbox')).toBeNull();
    expect(within(running).getByTestId('execution-stop-button')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('load-more-button'));
    await waitFor(() => expect(rowIds()).toHaveLength(13));
    expect(pastCalls()[1]?.query.get('lastId')).toBe('3');
    expect(screen.queryByTestId('load-more-button')).toBeNull();
    expect(screen.getByTestId('execution-all-loaded')).toBeInTheDocument();
  });

  it('filters by status and workflow with the query n8n sends', async () => {
    renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));

    await chooseOption('executions-filter-status', 'Error');
    await waitFor(() => expect(rowIds()).toEqual(['11', '9', '7', '5', '3', '1']));
    expect(JSON.parse(pastCalls().at(-1)?.query.get('filter') ?? '')).toEqual({ finished: false });
    for (const badge of screen.getAllByTestId('execution-status')) expect(badge).toHaveAttribute('data-status', 'error');
    expect(screen.getAllByTestId('execution-retry-button')).toHaveLength(6);

    await chooseOption('executions-filter-workflow', 'Beta');
    await waitFor(() => expect(screen.getByTestId('execution-list-empty')).toHaveTextContent('No executions found'));
    expect(JSON.parse(pastCalls().at(-1)?.query.get('filter') ?? '')).toEqual({ workflowId: '2', finished: false });

    await chooseOption('executions-filter-status', 'Running');
    await waitFor(() => expect(calls.at(-1)?.path).toBe('/rest/executions-current'));
    expect(JSON.parse(calls.at(-1)?.query.get('filter') ?? '')).toEqual({ workflowId: '2' });
  });

  it('deletes the selected executions by id after confirmation and reloads', async () => {
    renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));
    const boxes = screen.getAllByTestId('select-execution-checkbox');
    fireEvent.click(boxes[0] as HTMLElement);
    fireEvent.click(boxes[2] as HTMLElement);
    expect(screen.getByTestId('selected-executions-info')).toHaveTextContent('Selected: 2 / 12');

    fireEvent.click(screen.getByTestId('delete-selected-button'));
    fireEvent.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(calls.some((call) => call.path === '/rest/executions/delete')).toBe(true));
    expect(calls.find((call) => call.path === '/rest/executions/delete')?.body).toEqual({ ids: ['12', '10'], filters: {} });
    await waitFor(() => expect(pastCalls()).toHaveLength(2));
    expect(screen.queryByTestId('selected-executions-info')).toBeNull();
  });

  it('deletes everything up to the newest listed start when all are selected', async () => {
    renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));
    await chooseOption('executions-filter-workflow', 'alpha');
    await waitFor(() => expect(JSON.parse(pastCalls().at(-1)?.query.get('filter') ?? '')).toEqual({ workflowId: '1' }));
    await waitFor(() => expect(rowIds()).toHaveLength(11));

    fireEvent.click(screen.getByTestId('select-all-executions-checkbox'));
    expect(screen.getByTestId('selected-executions-info')).toHaveTextContent('Selected: 12 / 12');
    fireEvent.click(screen.getByTestId('delete-selected-button'));
    expect(await screen.findByText('Are you sure that you want to delete the 12 selected execution(s)?')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(calls.some((call) => call.path === '/rest/executions/delete')).toBe(true));
    expect(calls.find((call) => call.path === '/rest/executions/delete')?.body).toEqual({ deleteBefore: PAST[0]?.startedAt, filters: { workflowId: '1' } });
  });

  it('sends nothing when the deletion is cancelled', async () => {
    renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));
    fireEvent.click(screen.getAllByTestId('select-execution-checkbox')[0] as HTMLElement);
    fireEvent.click(screen.getByTestId('delete-selected-button'));
    fireEvent.click(await screen.findByTestId('cancel-button'));
    await waitFor(() => expect(screen.queryByTestId('cancel-button')).toBeNull());
    expect(calls.some((call) => call.path === '/rest/executions/delete')).toBe(false);
  });

  it('closes when an execution is opened', async () => {
    const onClose = renderDialog();
    await waitFor(() => expect(rowIds()).toHaveLength(11));
    const open = within(screen.getAllByTestId('execution-list-item')[1] as HTMLElement).getByTestId('execution-open-button');
    expect(open).toHaveAttribute('href', '/execution/12');
    fireEvent.click(open);
    expect(onClose).toHaveBeenCalled();
  });
});
