import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyParameterChange, type ParameterChange } from '@/core/parameters';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';
import { renderWithProviders } from '@/test/renderApp';
import { NdvContext, type NdvServices } from '@/views/nodeView/ndv/NdvContext';
import { NodeParameters } from './index';

vi.mock('@/views/nodeView/ndv/expression/InlineExpression', () => ({
  InlineExpression: ({ value, onOpen }: { value: string; onOpen: () => void }) => (
    <button type="button" onClick={onOpen} data-test-id="inline-expression">
      {value}
    </button>
  ),
}));

const TYPE: NodeTypeDescription = {
  name: 'test.rl',
  displayName: 'Sheets',
  group: ['transform'],
  version: 1,
  defaults: { name: 'RL' },
  inputs: ['main'],
  outputs: ['main'],
  properties: [
    {
      displayName: 'Workflow',
      name: 'workflowId',
      type: 'resourceLocator',
      required: true,
      default: { mode: 'list', value: '' },
      modes: [
        { displayName: 'From list', name: 'list', type: 'list', placeholder: 'Select a workflow...', typeOptions: { searchListMethod: 'searchWorkflows', searchable: true } },
        { displayName: 'By ID', name: 'id', type: 'string', hint: 'Can be found in the URL', validation: [{ type: 'regex', properties: { regex: '[0-9]+', errorMessage: 'Not a valid workflow ID' } }] },
      ],
    },
    {
      displayName: 'Columns',
      name: 'columns',
      type: 'resourceMapper',
      noDataExpression: true,
      default: { mappingMode: 'defineBelow', value: null },
      typeOptions: { resourceMapper: { mode: 'add', fieldWords: { singular: 'column', plural: 'columns' }, supportAutoMap: true } },
    },
  ],
};

function Harness({ initial, spy }: { initial: WorkflowNode; spy: (change: ParameterChange) => void }) {
  const [node, setNode] = useState(initial);
  return (
    <NodeParameters
      node={node}
      type={TYPE}
      onChange={(change) => {
        spy(change);
        setNode((current) => ({ ...current, ...applyParameterChange(current, TYPE, change) }));
      }}
    />
  );
}

function setup(parameters: WorkflowNode['parameters'] = {}) {
  const spy = vi.fn<(change: ParameterChange) => void>();
  const ndv: NdvServices = {
    nodeName: 'RL',
    readOnly: false,
    sessionId: 'rl-test',
    openExpressionEditor: vi.fn(),
    resolveExpression: () => Promise.resolve({ ok: true, value: 'x' }),
    runTo: vi.fn(),
    completionData: () => ({ inputFields: [], nodeNames: [], nodeFields: {} }),
  };
  renderWithProviders(
    <NdvContext.Provider value={ndv}>
      <Harness initial={{ name: 'RL', type: TYPE.name, typeVersion: 1, position: [0, 0], parameters }} spy={spy} />
    </NdvContext.Provider>,
  );
  return { spy, ndv };
}

const lastValue = (spy: ReturnType<typeof vi.fn>, path: string) => spy.mock.calls.map((call) => call[0] as ParameterChange).filter((change) => change.path === path).at(-1)?.value;

let searches: string[];

beforeEach(() => {
  searches = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.endsWith('/nodes-list-search')) {
        const filter = url.searchParams.get('filter') ?? '';
        searches.push(filter);
        const all = [
          { name: 'Orders', value: '7', url: 'http://localhost/workflow/7' },
          { name: 'Invoices', value: '8', url: 'http://localhost/workflow/8' },
        ];
        return Promise.resolve(Response.json({ data: { results: all.filter((entry) => entry.name.toLowerCase().includes(filter.toLowerCase())) } }));
      }
      return Promise.resolve(Response.json({ message: 'not found' }, { status: 404 }));
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('resource locator and mapper parameters', { timeout: 20000 }, () => {
  it('picks a list entry, keeps its name and link, then switches to By ID', async () => {
    const user = userEvent.setup();
    const { spy } = setup();
    const item = screen.getByTestId('parameter-input-workflowId');
    await user.click(within(item).getByPlaceholderText('Select a workflow...'));
    await user.click(await screen.findByRole('option', { name: 'Orders', hidden: true }));
    expect(lastValue(spy, 'parameters.workflowId')).toEqual({ __rl: true, mode: 'list', value: '7', cachedResultName: 'Orders', cachedResultUrl: 'http://localhost/workflow/7' });
    expect(within(item).getByTestId('rlc-open')).toHaveAttribute('href', 'http://localhost/workflow/7');

    await user.click(within(item).getByLabelText('Mode'));
    await user.click(await screen.findByRole('option', { name: 'By ID', hidden: true }));
    expect(lastValue(spy, 'parameters.workflowId')).toEqual({ __rl: true, mode: 'id', value: '7' });
    expect(within(item).getByTestId('rlc-input')).toHaveValue('7');
    expect(screen.getByTestId('rlc-hint')).toHaveTextContent('Can be found in the URL');
  });

  it('searches the list on the server with the typed text', async () => {
    const user = userEvent.setup();
    setup();
    const input = within(screen.getByTestId('parameter-input-workflowId')).getByPlaceholderText('Select a workflow...');
    await user.click(input);
    await screen.findByRole('option', { name: 'Invoices', hidden: true });
    await user.type(input, 'ord');
    await waitFor(() => expect(searches).toContain('ord'));
    await waitFor(() => expect(screen.queryByRole('option', { name: 'Invoices', hidden: true })).toBeNull());
    expect(screen.getByRole('option', { name: 'Orders', hidden: true })).toBeInTheDocument();
  });

  it('shows the mode validation error and the required issue', async () => {
    const user = userEvent.setup();
    setup({ workflowId: { __rl: true, mode: 'id', value: '' } });
    const item = screen.getByTestId('parameter-input-workflowId').parentElement as HTMLElement;
    await user.type(within(item).getByTestId('rlc-input'), 'abc');
    expect(await within(item).findByText('Not a valid workflow ID')).toBeInTheDocument();
    await user.clear(within(item).getByTestId('rlc-input'));
    await waitFor(() => expect(within(item).queryByText('Not a valid workflow ID')).toBeNull());
    expect(within(item).getByText('This field is required')).toBeInTheDocument();
  });

  it('reads a plain stored value and edits its expression inside the locator', async () => {
    const user = userEvent.setup();
    const { spy, ndv } = setup({ workflowId: '42' });
    expect(within(screen.getByTestId('parameter-input-workflowId')).getByTestId('rlc-input')).toHaveValue('42');
    // Expression mode through the parameter options menu.
    const item = screen.getByTestId('parameter-input-workflowId').parentElement as HTMLElement;
    await user.hover(item);
    await user.click(within(item).getByRole('radio', { name: 'Expression' }));
    expect(lastValue(spy, 'parameters.workflowId')).toEqual({ __rl: true, mode: 'id', value: '=42' });
    expect(ndv.openExpressionEditor).toHaveBeenCalledWith(expect.objectContaining({ path: 'parameters.workflowId', value: '=42' }));
    expect(within(item).getByTestId('inline-expression')).toHaveTextContent('=42');
    expect(within(item).getByTestId('rlc-mode-selector')).toBeInTheDocument();
  });

  it('edits defineBelow fields and shows the hint when mapping automatically', async () => {
    const user = userEvent.setup();
    const { spy } = setup({
      columns: {
        mappingMode: 'defineBelow',
        value: { id: 1 },
        matchingColumns: ['id'],
        schema: [
          { id: 'id', displayName: 'id', required: true, type: 'number', display: true, removed: false },
          { id: 'name', displayName: 'name', required: false, type: 'string', display: true, removed: false },
        ],
      },
    });
    const mapper = screen.getByTestId('resource-mapper');
    expect(within(mapper).getAllByTestId('mapping-field').map((row) => row.getAttribute('data-field'))).toEqual(['id', 'name']);
    await user.type(within(mapper).getByLabelText('name'), 'Ann');
    const value = lastValue(spy, 'parameters.columns') as { value: unknown; matchingColumns: unknown };
    expect(value.value).toEqual({ id: 1, name: 'Ann' });
    expect(value.matchingColumns).toEqual(['id']);
    await user.clear(within(mapper).getByLabelText('id *'));
    await user.type(within(mapper).getByLabelText('id *'), '5');
    expect((lastValue(spy, 'parameters.columns') as { value: unknown }).value).toEqual({ id: 5, name: 'Ann' });

    await user.click(within(mapper).getByLabelText('Mapping Column Mode'));
    await user.click(await screen.findByRole('option', { name: 'Map Automatically', hidden: true }));
    expect((lastValue(spy, 'parameters.columns') as { mappingMode: string }).mappingMode).toBe('autoMapInputData');
    expect(screen.getByTestId('mapper-automap-hint')).toHaveTextContent('named the same as the columns in Sheets');
  });
});
