import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '@/core/settings';
import type { User } from '@/core/user';
import { currentUrl, renderApp, setUpAppTests } from '@/test/renderApp';

const OWNER: User = { id: '1', firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', globalRole: { name: 'owner' }, isPending: false };

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function storedExecution(fields: Record<string, unknown> = {}, resultData: Record<string, unknown> = { runData: {} }) {
  return {
    id: '5',
    finished: true,
    mode: 'manual',
    startedAt: '2024-05-01T10:00:00Z',
    stoppedAt: '2024-05-01T10:00:02Z',
    waitTill: null,
    workflowId: 'wf1',
    workflowName: 'Orders',
    workflowData: { id: 'wf1', name: 'Orders', nodes: [], connections: {} },
    data: { resultData },
    ...fields,
  };
}

/** A signed-in backend answering GET /executions/:id with `execution` (or 404 when null). */
function stubBackend(execution: Record<string, unknown> | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (input) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if (path === '/rest/settings') return json({ data: DEFAULT_SETTINGS });
      if (path === '/rest/login') return json({ data: OWNER });
      if (path === '/rest/node-types') return json({ data: [] });
      if (path.startsWith('/rest/executions/')) {
        return execution ? json({ data: execution }) : json({ code: 404, message: 'Execution with ID 999 could not be found' }, 404);
      }
      if (path === '/rest/workflows/new') return json({ data: { name: 'My workflow', onboardingFlowEnabled: false } });
      if (path === '/rest/workflows' || path === '/rest/executions-current') return json({ data: [] });
      if (path === '/rest/executions') return json({ data: { results: [], count: 0, estimated: false } });
      return json({ code: 404, message: 'not found' }, 404);
    }),
  );
}

const toastTexts = () => screen.queryAllByTestId('toast').map((toast) => toast.textContent ?? '');

describe('execution view', { timeout: 20_000 }, () => {
  setUpAppTests();

  it('shows the execution id with its status, the workflow it ran and a read-only notice', async () => {
    stubBackend(storedExecution());
    renderApp('/execution/5');
    const id = await screen.findByTestId('execution-id', {}, { timeout: 8000 });
    expect(id).toHaveTextContent('Execution #5');
    expect(within(id).getByTestId('execution-status-icon')).toHaveAttribute('data-status', 'success');
    expect(screen.getByTestId('execution-workflow-name')).toHaveAttribute('href', '/workflow/wf1');
    expect(screen.getByTestId('read-only-notice')).toHaveTextContent('Read only');
  });

  it('reports a workflow error no node carries as a failed execution', async () => {
    stubBackend(storedExecution({ finished: false }, { runData: {}, error: { message: 'Workflow timed out' } }));
    renderApp('/execution/5');
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Failed execution')), { timeout: 8000 });
    expect(toastTexts().join()).toContain('Workflow timed out');
    expect(within(screen.getByTestId('execution-id')).getByTestId('execution-status-icon')).toHaveAttribute('data-status', 'error');
  });

  it('tells that a waiting execution has not finished, with a refresh link', async () => {
    stubBackend(storedExecution({ finished: false, stoppedAt: null, waitTill: '2030-01-01T00:00:00Z' }));
    renderApp('/execution/5');
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining("This execution hasn't finished yet")), { timeout: 8000 });
    expect(screen.getByTestId('execution-reload')).toHaveTextContent('Refresh');
    expect(within(screen.getByTestId('execution-id')).getByTestId('execution-status-icon')).toHaveAttribute('data-status', 'waiting');
  });

  it('shows the server message and opens a new workflow when the execution is missing', async () => {
    stubBackend(null);
    const { router } = renderApp('/execution/999');
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Problem loading execution')), { timeout: 8000 });
    expect(toastTexts().join()).toContain('Execution with ID 999 could not be found');
    await waitFor(() => expect(currentUrl(router)).toBe('/workflow'));
  });

  it('opens the executions dialog from the sidebar', async () => {
    stubBackend(storedExecution());
    renderApp('/execution/5');
    fireEvent.click(await screen.findByTestId('main-sidebar-executions'));
    expect(await screen.findByTestId('executions-list-modal')).toHaveTextContent('Workflow Executions');
    expect(await screen.findByTestId('execution-list-empty')).toHaveTextContent('No executions found');
  });
});
