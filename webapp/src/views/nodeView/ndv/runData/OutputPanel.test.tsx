import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { addConnection, mainConnection } from '@/core/workflow/connections';
import { NodeTypeIndex } from '@/core/workflow/nodeTypes';
import { testType } from '@/core/workflow/testTypes';
import type { Graph } from '@/core/workflow/types';
import { OutputPanel } from './OutputPanel';
import { items, node, renderRunData, taskData } from './testHarness';

const graph: Graph = {
  nodes: [node('Start', 'manualTrigger'), node('Set', 'set'), node('IF', 'if')],
  connections: addConnection(addConnection({}, mainConnection('Start', 0, 'Set', 0)), mainConnection('Set', 0, 'IF', 0)),
};

function tableOf(container: HTMLElement) {
  const table = within(container).getByTestId('ndv-data-table');
  const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent);
  const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
  return { headers, rows };
}

describe('output panel', () => {
  beforeAll(() => {
    // Mantine's option list scrolls the active option into view; jsdom has no layout.
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  it('shows a page of items as a table with the union of keys and an item count', () => {
    const data = items(25, (i) => (i === 1 ? { id: 2, extra: { deep: [1, 2] } } : { id: i + 1, name: `Item ${i + 1}` }));
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set', runData: { Set: [taskData([data])] } });
    const panel = screen.getByTestId('output-panel');
    expect(within(panel).getByTestId('ndv-items-count')).toHaveTextContent('25 items');
    const { headers, rows } = tableOf(panel);
    expect(headers).toEqual(['id', 'name', 'extra']);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual(['1', 'Item 1', '']);
    expect(rows[1]).toEqual(['2', '', '{"deep":[1,2]}']);
    fireEvent.click(within(panel).getByRole('button', { name: 'Page 3' }));
    expect(tableOf(panel).rows.map((row) => row[0])).toEqual(['21', '22', '23', '24', '25']);
  });

  it('renders the page as JSON and copies the shown data', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set', runData: { Set: [taskData([items(3)])] } });
    fireEvent.click(screen.getByText('JSON'));
    const tree = await screen.findByTestId('ndv-json');
    expect(tree).toHaveTextContent('"name": "Item 1"');
    expect(tree).toHaveTextContent('"id": 3');
    expect(screen.queryByTestId('ndv-data-table')).toBeNull();
    fireEvent.click(screen.getByTestId('ndv-json-copy'));
    fireEvent.click(await screen.findByTestId('ndv-copy-value'));
    await waitFor(() => expect(writeText).toHaveBeenCalled());
    expect(JSON.parse(String(writeText.mock.calls[0]?.[0 as never]))).toEqual(items(3).map((item) => item.json));
  });

  it('labels IF branches with their output names and counts', () => {
    renderRunData(<OutputPanel />, { graph, nodeName: 'IF', runData: { IF: [taskData([items(2), []])] } });
    const branches = screen.getByTestId('branches');
    expect(within(branches).getByText('True Branch (2 items)')).toBeInTheDocument();
    fireEvent.click(within(branches).getByText('False Branch'));
    expect(screen.getByText('No output data in this branch')).toBeInTheDocument();
  });

  it('hides data above the size limit until asked, and then renders only one page', () => {
    const big = items(10000, (i) => ({ id: i, text: 'lorem ipsum dolor sit amet, consectetur adipiscing elit' }));
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set', runData: { Set: [taskData([big])] } });
    expect(screen.getByTestId('ndv-data-size-warning')).toHaveTextContent(/The node contains [\d.]+ MB of data/);
    fireEvent.click(screen.getByTestId('ndv-show-data-anyway'));
    expect(tableOf(screen.getByTestId('output-panel')).rows).toHaveLength(10);
  });

  it('renders only a window of rows when every item is on one page', async () => {
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set', runData: { Set: [taskData([items(2000)])] } });
    fireEvent.click(screen.getByTestId('ndv-page-size'));
    fireEvent.click(await screen.findByRole('option', { name: 'All' }));
    await act(async () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
    const rendered = tableOf(screen.getByTestId('output-panel')).rows.filter((row) => row.length > 0);
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(200);
  });

  it('asks to execute the node before it ran', () => {
    const { ndv } = renderRunData(<OutputPanel />, { graph, nodeName: 'Set' });
    expect(screen.getByTestId('ndv-output-run-node-hint')).toHaveTextContent('Execute this node to output data');
    fireEvent.click(screen.getByTestId('ndv-output-execute-node'));
    expect(ndv.runTo).toHaveBeenCalledWith('Set');
  });

  it('disables Execute Node while the node has issues, as the panel header does', () => {
    const required = { ...testType('set'), properties: [{ name: 'value', displayName: 'Value', type: 'string' as const, default: '', required: true }] };
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set', details: new NodeTypeIndex([required]) });
    expect(screen.getByTestId('ndv-output-execute-node')).toBeDisabled();
  });

  it('shows the stale-data warning only when parameters changed after the shown run started', () => {
    const { store } = renderRunData(<OutputPanel />, { graph, nodeName: 'Set', runData: { Set: [taskData([items(1)], { startTime: Date.now() - 1000 })] } });
    expect(screen.queryByTestId('ndv-stale-data-warning')).toBeNull();
    act(() => store.edit([{ kind: 'updateNode', name: 'Set', patch: { parameters: { value: 1 } } }]));
    expect(screen.getByTestId('ndv-stale-data-warning')).toBeInTheDocument();
  });

  it('shows the executing state and the no-output hint with a settings link', () => {
    const onOpenSettings = vi.fn();
    renderRunData(<OutputPanel onOpenSettings={onOpenSettings} />, { graph, nodeName: 'Set', runData: { Set: [taskData([[]])] } });
    expect(screen.getByText('No output data returned')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('ndv-open-settings'));
    expect(onOpenSettings).toHaveBeenCalled();
  });

  it('spins while the node executes', () => {
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set', execution: { status: 'running', executing: ['Set'], runData: {} } });
    expect(screen.getByTestId('ndv-executing')).toHaveTextContent('Executing node...');
  });

  it('tells a trigger node it listens while the editor waits for a test event', () => {
    const hooks: Graph = { nodes: [node('Webhook', 'webhook')], connections: {} };
    renderRunData(<OutputPanel />, { graph: hooks, nodeName: 'Webhook', execution: { status: 'waitingForWebhook', runData: {} } });
    expect(screen.getByTestId('ndv-executing')).toHaveTextContent('Listening for test event');
    expect(screen.queryByTestId('ndv-output-waiting')).toBeNull();
  });

  it('explains when a webhook trigger runs the workflow before it ran', () => {
    const hooks: Graph = { nodes: [node('Webhook', 'webhook')], connections: {} };
    renderRunData(<OutputPanel />, { graph: hooks, nodeName: 'Webhook' });
    fireEvent.click(screen.getByTestId('ndv-trigger-help-toggle'));
    expect(screen.getByText(/every time there's a matching event in Webhook/)).toBeInTheDocument();
  });
});
