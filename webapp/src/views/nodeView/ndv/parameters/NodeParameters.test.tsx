import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAPPING_MIME } from '@/core/expressions/mapping';
import { applyParameterChange, type ParameterChange } from '@/core/parameters';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';
import { closeModal, getModalStack, type EditCredentialProps } from '@/components/modalHost';
import { renderWithProviders } from '@/test/renderApp';
import { NdvContext, type NdvServices } from '@/views/nodeView/ndv/NdvContext';
import { NodeParameters, NodeSettings } from './index';

vi.mock('@/views/nodeView/ndv/expression/InlineExpression', () => ({
  InlineExpression: ({ value, onOpen, path }: { value: string; onOpen: () => void; path: string }) => (
    <button type="button" onClick={onOpen} data-test-id="inline-expression" data-parameter-path={path}>
      {value}
    </button>
  ),
}));

const TYPE: NodeTypeDescription = {
  name: 'test.all',
  displayName: 'All Editors',
  group: ['transform'],
  version: 1,
  defaults: { name: 'All' },
  inputs: ['main'],
  outputs: ['main'],
  credentials: [{ name: 'testApi', required: true }],
  properties: [
    { displayName: 'Read the <a href="https://docs.example.com">docs</a><script>alert(1)</script> <a href="javascript:alert(1)">bad</a>', name: 'notice', type: 'notice', default: '' },
    { displayName: 'URL', name: 'url', type: 'string', default: '', required: true, placeholder: 'https://example.com', description: 'Where to send the request' },
    { displayName: 'Body', name: 'body', type: 'string', default: '', typeOptions: { rows: 4 } },
    { displayName: 'Token', name: 'token', type: 'string', default: '', typeOptions: { password: true } },
    { displayName: 'Code', name: 'code', type: 'string', default: 'return items;', typeOptions: { editor: 'code' } },
    { displayName: 'Limit', name: 'limit', type: 'number', default: 5, typeOptions: { minValue: 1, maxValue: 10 } },
    { displayName: 'Enabled', name: 'enabled', type: 'boolean', default: false },
    { displayName: 'Method', name: 'method', type: 'options', default: 'GET', options: [{ name: 'GET', value: 'GET' }, { name: 'POST', value: 'POST' }] },
    { displayName: 'Tags', name: 'tags', type: 'multiOptions', default: [], options: [{ name: 'A', value: 'a' }] },
    { displayName: 'Zone', name: 'zone', type: 'options', default: '', typeOptions: { loadOptionsMethod: 'getZones' } },
    { displayName: 'When', name: 'when', type: 'dateTime', default: '' },
    { displayName: 'Color', name: 'color', type: 'color', default: '#ff0000' },
    { displayName: 'Data', name: 'data', type: 'json', default: '{}' },
    { displayName: 'Secret', name: 'secret', type: 'hidden', default: 's' },
    { displayName: 'Extra', name: 'extra', type: 'string', default: '', displayOptions: { show: { enabled: [true] } } },
    {
      displayName: 'Options',
      name: 'options',
      type: 'collection',
      placeholder: 'Add Option',
      default: {},
      options: [{ displayName: 'Timeout', name: 'timeout', type: 'number', default: 1000 }],
    },
    {
      displayName: 'Values',
      name: 'values',
      type: 'fixedCollection',
      placeholder: 'Add Value',
      typeOptions: { multipleValues: true, sortable: true },
      default: {},
      options: [{ name: 'string', displayName: 'String', values: [{ displayName: 'Name', name: 'name', type: 'string', default: 'propertyName' }] }],
    },
  ],
};

function services(overrides: Partial<NdvServices> = {}): NdvServices {
  return {
    nodeName: 'All',
    readOnly: false,
    sessionId: 'ndv-test',
    openExpressionEditor: vi.fn(),
    resolveExpression: () => Promise.resolve({ ok: true, value: 'resolved' }),
    runTo: vi.fn(),
    completionData: () => ({ inputFields: [], nodeNames: [], nodeFields: {} }),
    ...overrides,
  };
}

function Harness({ initial, onChangeSpy, settings = false }: { initial: WorkflowNode; onChangeSpy: (change: ParameterChange) => void; settings?: boolean }) {
  const [node, setNode] = useState(initial);
  const onChange = (change: ParameterChange) => {
    onChangeSpy(change);
    setNode((current) => ({ ...current, ...applyParameterChange(current, TYPE, change) }));
  };
  return settings ? <NodeSettings node={node} type={TYPE} onChange={onChange} /> : <NodeParameters node={node} type={TYPE} onChange={onChange} />;
}

function setup(parameters: WorkflowNode['parameters'] = {}, options: { readOnly?: boolean; settings?: boolean; extra?: Partial<WorkflowNode> } = {}) {
  const node: WorkflowNode = { name: 'All', type: TYPE.name, typeVersion: 1, position: [0, 0], parameters, ...options.extra };
  const spy = vi.fn<(change: ParameterChange) => void>();
  const ndv = services({ readOnly: options.readOnly ?? false });
  renderWithProviders(
    <NdvContext.Provider value={ndv}>
      <Harness initial={node} onChangeSpy={spy} settings={options.settings} />
    </NdvContext.Provider>,
  );
  return { spy, ndv };
}

let zoneResponse: () => Response;

// jsdom has no FontFaceSet; Mantine's autosizing textarea listens on it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
}

beforeEach(() => {
  zoneResponse = () => Response.json({ data: [{ name: 'Berlin', value: 'Europe/Berlin' }] });
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('/node-parameter-options')) return Promise.resolve(zoneResponse());
      if (url.includes('/credential-types')) return Promise.resolve(Response.json({ data: [{ name: 'testApi', displayName: 'Test API' }] }));
      if (url.includes('/credentials')) return Promise.resolve(Response.json({ data: [{ id: '1', name: 'My Test', type: 'testApi', createdAt: '', updatedAt: '' }] }));
      return Promise.resolve(Response.json({ message: 'not found' }, { status: 404 }));
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NodeParameters', { timeout: 20000 }, () => {
  it('renders an editor for every shown parameter type and none for hidden ones', async () => {
    setup();
    for (const name of ['url', 'body', 'token', 'code', 'limit', 'enabled', 'method', 'tags', 'zone', 'when', 'color', 'data']) {
      expect(screen.getByTestId(`parameter-input-${name}`)).toBeInTheDocument();
    }
    expect(screen.queryByTestId('parameter-input-secret')).toBeNull();
    expect(screen.queryByTestId('parameter-input-extra')).toBeNull();
    expect(within(screen.getByTestId('parameter-input-token')).getByDisplayValue('')).toHaveAttribute('type', 'password');
    expect(within(screen.getByTestId('parameter-input-body')).getByRole('textbox').tagName).toBe('TEXTAREA');
    expect(screen.getByTestId('collection-parameter')).toHaveTextContent('No properties');
    expect(screen.getByTestId('fixed-collection-values')).toHaveTextContent('Currently no items exist');
    await waitFor(() => expect(screen.getByTestId('node-credentials-select')).toBeInTheDocument());
  });

  it('sanitizes notices: safe links kept, scripts and javascript: links dropped', () => {
    setup();
    const notice = screen.getByTestId('parameter-notice');
    expect(within(notice).getByText('docs')).toHaveAttribute('href', 'https://docs.example.com');
    expect(within(notice).getByText('bad')).toHaveAttribute('href', '#');
    expect(notice.querySelector('script')).toBeNull();
  });

  it('reports text edits by path and shows the required issue until filled', async () => {
    const { spy } = setup();
    const url = within(screen.getByTestId('parameter-input-url')).getByPlaceholderText('https://example.com');
    const item = url.closest('[data-test-id="parameter-item"]') as HTMLElement;
    expect(within(item).getByTestId('parameter-issues')).toHaveTextContent('This field is required');
    await userEvent.type(url, 'h');
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.url', value: 'h' });
    expect(within(item).queryByTestId('parameter-issues')).toBeNull();
  });

  it('maps a field dropped from the input panel as an expression, appending to an expression', () => {
    const { spy } = setup({ body: '={{ $json["a"] }}' });
    const drag = (field: object) => {
      const text = JSON.stringify(field);
      return { dataTransfer: { types: [MAPPING_MIME, 'text/plain'], getData: (type: string) => (type === MAPPING_MIME ? text : ''), dropEffect: 'none' } };
    };
    const url = screen.getByTestId('parameter-input-url');
    fireEvent.dragOver(url, drag({ nodeName: 'Start', direct: true, path: ['name'] }));
    expect(url).toHaveAttribute('data-drop-over', 'true');
    fireEvent.drop(url, drag({ nodeName: 'Start', direct: true, path: ['name'] }));
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.url', value: '={{ $json["name"] }}' });
    expect(url).not.toHaveAttribute('data-drop-over');
    fireEvent.drop(screen.getByTestId('parameter-input-body'), drag({ nodeName: 'Fetch', direct: false, path: ['user', 'id'] }));
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.body', value: '={{ $json["a"] }} {{ $node["Fetch"].json["user"]["id"] }}' });
    // Other drags change nothing.
    spy.mockClear();
    fireEvent.drop(url, { dataTransfer: { types: ['text/plain'], getData: () => 'x' } });
    expect(spy).not.toHaveBeenCalled();
    expect(url).toHaveAttribute('data-drop-hint', 'Drop here to map');
  });

  it('shows parameters when their displayOptions start to match', async () => {
    setup();
    await userEvent.click(within(screen.getByTestId('parameter-input-enabled')).getByRole('switch'));
    expect(screen.getByTestId('parameter-input-extra')).toBeInTheDocument();
  });

  it('flags option values that are not supported', () => {
    setup({ method: 'PUT' });
    expect(screen.getByText('The value "PUT" is not supported!')).toBeInTheDocument();
  });

  it('loads remote options and reports a failure with a reload', async () => {
    zoneResponse = () => Response.json({ message: 'upstream down' }, { status: 500 });
    setup();
    expect(await screen.findByText('There was a problem loading the parameter options from server: upstream down')).toBeInTheDocument();
    zoneResponse = () => Response.json({ data: [{ name: 'Berlin', value: 'Europe/Berlin' }] });
    const item = screen.getByTestId('parameter-input-zone').closest('[data-test-id="parameter-item"]') as HTMLElement;
    await userEvent.click(within(item).getByTestId('parameter-options-menu'));
    await userEvent.click(await screen.findByTestId('parameter-refresh-list'));
    await waitFor(() => expect(screen.queryByText(/There was a problem loading/)).toBeNull());
  });

  it('adds and removes collection options', async () => {
    const { spy } = setup();
    await userEvent.click(screen.getByTestId('collection-parameter-add'));
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.options.timeout', value: 1000 });
    expect(screen.getByTestId('parameter-input-timeout')).toBeInTheDocument();
    await userEvent.click(within(screen.getByTestId('collection-parameter')).getByTestId('parameter-item-delete'));
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.options.timeout', value: undefined });
    expect(screen.queryByTestId('parameter-input-timeout')).toBeNull();
  });

  it('adds, moves and deletes fixed collection items', async () => {
    const { spy } = setup({ values: { string: [{ name: 'first' }] } });
    await userEvent.click(screen.getByTestId('fixed-collection-add'));
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.values.string[1]', value: { name: 'propertyName' } });
    expect(screen.getAllByTestId('parameter-input-name')).toHaveLength(2);
    await userEvent.click(screen.getAllByTestId('parameter-item-move-up')[0] as HTMLElement);
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.values.string', value: [{ name: 'propertyName' }, { name: 'first' }] });
    const deletes = within(screen.getByTestId('fixed-collection-values')).getAllByTestId('parameter-item-delete');
    await userEvent.click(deletes[0] as HTMLElement);
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.values.string[0]', value: undefined });
    expect(screen.getAllByTestId('parameter-input-name')).toHaveLength(1);
  });

  it('switches a value to an expression and opens the expression editor', async () => {
    const { spy, ndv } = setup({ limit: 7 });
    const item = screen.getByTestId('parameter-input-limit').closest('[data-test-id="parameter-item"]') as HTMLElement;
    await userEvent.click(within(item).getByText('Expression'));
    expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.limit', value: '={{7}}' });
    expect(ndv.openExpressionEditor).toHaveBeenCalledWith(expect.objectContaining({ path: 'parameters.limit', value: '={{7}}' }));
    expect(within(item).getByTestId('inline-expression')).toBeInTheDocument();
    await userEvent.click(within(item).getByText('Fixed'));
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith({ path: 'parameters.limit', value: 7 }));
  });

  it('selects a credential of the type from the user credentials', async () => {
    const { spy } = setup();
    expect(await screen.findByText('Credentials for Test API are not set.')).toBeInTheDocument();
    expect(screen.getByText('Credential for Test API')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('node-credentials-select'));
    await userEvent.click(await screen.findByRole('option', { name: 'My Test', hidden: true }));
    expect(spy).toHaveBeenLastCalledWith({ path: 'credentials.testApi', value: { id: '1', name: 'My Test' } });
  });

  it('offers Create New, which opens the credential modal and selects the saved credential', async () => {
    const { spy } = setup();
    await userEvent.click(screen.getByTestId('node-credentials-select'));
    await userEvent.click(await screen.findByRole('option', { name: '- Create New -', hidden: true }));
    const opened = getModalStack()[0];
    expect(opened?.name).toBe('editCredential');
    const props = opened?.props as EditCredentialProps;
    expect(props).toMatchObject({ mode: 'new', activeId: 'testApi' });
    act(() => props.onSaved?.({ id: '5', name: 'Fresh', type: 'testApi' }));
    expect(spy).toHaveBeenLastCalledWith({ path: 'credentials.testApi', value: { id: '5', name: 'Fresh' } });
    act(() => closeModal('editCredential'));
  });

  it('disables every input in read-only mode', () => {
    setup({ url: 'x' }, { readOnly: true });
    expect(within(screen.getByTestId('parameter-input-url')).getByDisplayValue('x')).toBeDisabled();
    expect(within(screen.getByTestId('parameter-input-enabled')).getByRole('switch')).toBeDisabled();
    expect(screen.queryByTestId('collection-parameter-add')).toBeNull();
    expect(screen.queryByTestId('parameter-options')).toBeNull();
  });
});

describe('NodeSettings', { timeout: 20000 }, () => {
  it('shows retry fields only with retry on fail and stores only non-defaults', async () => {
    const { spy } = setup({}, { settings: true });
    expect(screen.getByText('Always Output Data')).toBeInTheDocument();
    expect(screen.queryByTestId('parameter-input-maxTries')).toBeNull();
    await userEvent.click(within(screen.getByTestId('parameter-input-retryOnFail')).getByRole('switch'));
    expect(spy).toHaveBeenLastCalledWith({ path: 'retryOnFail', value: true });
    expect(within(screen.getByTestId('parameter-input-maxTries')).getByDisplayValue('3')).toBeInTheDocument();
    expect(within(screen.getByTestId('parameter-input-waitBetweenTries')).getByDisplayValue('1000')).toBeInTheDocument();
    const notes = within(screen.getByTestId('parameter-input-notes')).getByRole('textbox');
    await act(async () => {
      await userEvent.type(notes, 'n');
    });
    expect(spy).toHaveBeenLastCalledWith({ path: 'notes', value: 'n' });
  });
});
