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

const TYPE: NodeTypeDescription = {
  name: 'test.db',
  displayName: 'Database',
  group: ['input'],
  version: 1,
  defaults: { name: 'DB' },
  inputs: ['main'],
  outputs: ['main'],
  properties: [
    { displayName: 'Table', name: 'table', type: 'string', default: '' },
    {
      displayName: 'Columns',
      name: 'columns',
      type: 'resourceMapper',
      noDataExpression: true,
      default: { mappingMode: 'defineBelow', value: null },
      typeOptions: {
        loadOptionsDependsOn: ['table'],
        resourceMapper: { resourceMapperMethod: 'getMappingColumns', mode: 'upsert', fieldWords: { singular: 'column', plural: 'columns' }, addAllFields: true, multiKeyMatch: true },
      },
    },
  ],
};

const FIELDS: Record<string, unknown[]> = {
  orders: [
    { id: 'id', displayName: 'id', required: false, defaultMatch: true, canBeUsedToMatch: true, display: true, type: 'number' },
    { id: 'item', displayName: 'item', required: true, defaultMatch: false, canBeUsedToMatch: false, display: true, type: 'string' },
    { id: 'mood', displayName: 'mood', required: false, defaultMatch: false, canBeUsedToMatch: false, display: true, type: 'options', options: [{ name: 'sad', value: 'sad' }, { name: 'happy', value: 'happy' }] },
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

const ndv: NdvServices = {
  nodeName: 'DB',
  readOnly: false,
  sessionId: 'mapper-test',
  openExpressionEditor: vi.fn(),
  resolveExpression: () => Promise.resolve({ ok: true, value: 'x' }),
  runTo: vi.fn(),
  completionData: () => ({ inputFields: [], nodeNames: [], nodeFields: {} }),
};

function setup(parameters: WorkflowNode['parameters']) {
  const spy = vi.fn<(change: ParameterChange) => void>();
  renderWithProviders(
    <NdvContext.Provider value={ndv}>
      <Harness initial={{ name: 'DB', type: TYPE.name, typeVersion: 1, position: [0, 0], parameters, credentials: { postgres: { id: '1', name: 'pg' } } }} spy={spy} />
    </NdvContext.Provider>,
  );
  return spy;
}

const lastValue = (spy: ReturnType<typeof vi.fn>, path: string) => spy.mock.calls.map((call) => call[0] as ParameterChange).filter((change) => change.path === path).at(-1)?.value;

let requests: URL[];

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname.endsWith('/get-mapping-fields')) {
        requests.push(url);
        const table = (JSON.parse(url.searchParams.get('currentNodeParameters') ?? '{}') as { table?: string }).table ?? '';
        const fields = FIELDS[table];
        return Promise.resolve(fields ? Response.json({ data: { fields } }) : Response.json({ message: `Problem loading the fields: relation "${table}" does not exist` }, { status: 500 }));
      }
      return Promise.resolve(Response.json({ message: 'not found' }, { status: 404 }));
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('resource mapper fields from the node', { timeout: 20000 }, () => {
  it('loads nothing until the table is set, then keeps the answered fields in the schema', async () => {
    const user = userEvent.setup();
    const spy = setup({ table: '' });
    expect(screen.queryByTestId('mapping-field')).toBeNull();
    expect(screen.getByTestId('mapper-waiting')).toHaveTextContent('Choose the Table to see its columns');
    expect(requests).toHaveLength(0);

    await user.type(screen.getByTestId('parameter-input-table').querySelector('input, textarea') as HTMLElement, 'orders');
    await waitFor(() => expect(screen.getAllByTestId('mapping-field').map((row) => row.getAttribute('data-field'))).toEqual(['id', 'item', 'mood']));
    const request = requests.at(-1);
    expect(request?.searchParams.get('methodName')).toBe('getMappingColumns');
    expect(request?.searchParams.get('path')).toBe('parameters.columns');
    expect(JSON.parse(request?.searchParams.get('credentials') ?? '{}')).toEqual({ postgres: { id: '1', name: 'pg' } });
    const stored = lastValue(spy, 'parameters.columns') as { matchingColumns: string[]; schema: Array<{ id: string }> };
    expect(stored.matchingColumns).toEqual(['id']);
    expect(stored.schema.map((field) => field.id)).toEqual(['id', 'item', 'mood']);

    const mapper = screen.getByTestId('resource-mapper');
    expect(within(mapper).getByLabelText('item *')).toBeInTheDocument();
    await user.type(within(mapper).getByLabelText('item *'), 'pen');
    await user.click(within(mapper).getByLabelText('mood'));
    await user.click(await screen.findByRole('option', { name: 'happy', hidden: true }));
    expect((lastValue(spy, 'parameters.columns') as { value: unknown }).value).toEqual({ item: 'pen', mood: 'happy' });
    expect(within(mapper).getByLabelText('Columns to match on')).toBe(screen.getByTestId('mapper-matching-columns'));
    expect([...mapper.querySelectorAll('.mantine-Pill-label')].map((pill) => pill.textContent)).toEqual(['id']);
  });

  it('shows the server message when the fields cannot be loaded', async () => {
    setup({ table: 'nowhere' });
    expect(await screen.findByTestId('mapper-fields-error')).toHaveTextContent(`Can't get columns: Problem loading the fields: relation "nowhere" does not exist`);
  });
});
