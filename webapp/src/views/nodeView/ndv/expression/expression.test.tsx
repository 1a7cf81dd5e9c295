import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_EXECUTION } from '@/core/editor/execution';
import { EditorStore, initialEditorState } from '@/core/editor/store';
import type { EvaluationResult } from '@/core/expressions/result';
import type { TaskData } from '@/core/push/messages';
import { TEST_INDEX, TEST_TYPES } from '@/core/workflow/testTypes';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import { renderWithProviders } from '@/test/renderApp';
import { EditorContext, type EditorContextValue } from '@/views/nodeView/EditorContext';
import type { EditorActions } from '@/views/nodeView/useEditorActions';
import { NdvContext, type ExpressionEditorRequest, type NdvServices } from '@/views/nodeView/ndv/NdvContext';
import { ExpressionEditorModal, InlineExpression, useExpressionResolver } from './index';

function node(name: string, type: string, parameters: WorkflowNode['parameters'] = {}): WorkflowNode {
  return { name, type: `n8n-nodes-base.${type}`, typeVersion: 1, position: [0, 0], parameters };
}

const graph: Graph = {
  nodes: [node('Start', 'start'), node('Set', 'set', { keepOnlySet: true, value: '={{$json.name}}' })],
  connections: { Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
};
const runData: Record<string, TaskData[]> = { Start: [{ startTime: 1, executionTime: 1, source: [], data: { main: [[{ json: { name: 'Ada', 'full name': 'Ada L' } }]] } }] };

function setup(ui: ReactNode, resolve: (expression: string) => EvaluationResult, readOnly = false) {
  const store = new EditorStore(initialEditorState({ id: '9', name: 'Flow' }, graph));
  store.updateExecution(() => ({ ...IDLE_EXECUTION, runData }));
  const editor: EditorContextValue = { store, types: TEST_TYPES, index: TEST_INDEX, details: null, mode: 'existing', readOnly, actions: {} as EditorActions };
  const resolveExpression = vi.fn(async (expression: string) => resolve(expression));
  const ndv: NdvServices = { nodeName: 'Set', readOnly, sessionId: 'ndv-test', openExpressionEditor: vi.fn(), resolveExpression, runTo: vi.fn(), completionData: () => ({ inputFields: ['name'], nodeNames: ['Start'], nodeFields: {} }) };
  renderWithProviders(
    <EditorContext.Provider value={editor}>
      <NdvContext.Provider value={ndv}>{ui}</NdvContext.Provider>
    </EditorContext.Provider>,
  );
  return { store, resolveExpression };
}

const values: Record<string, EvaluationResult> = {
  '={{$json.name}}': { ok: true, value: 'Ada' },
  '={{ $json.name }}': { ok: true, value: 'Ada' },
  '={{$json["full name"]}}': { ok: true, value: 'Ada L' },
  '={{ $json.missing }}': { ok: false, kind: 'notFound', message: 'The expression gives undefined' },
  '={{ boom( }}': { ok: false, kind: 'invalid', message: 'SyntaxError: Unexpected end' },
  '={{ "" }}': { ok: true, value: '' },
};
const lookup = (expression: string): EvaluationResult => values[expression] ?? { ok: false, kind: 'invalid', message: `unexpected ${expression}` };

function Editor({ initial, onChange }: { initial: string; onChange: (value: string) => void }) {
  const [request, setRequest] = useState<ExpressionEditorRequest | null>({ path: 'parameters.value', value: initial, onChange });
  return <ExpressionEditorModal request={request} onClose={() => setRequest(null)} />;
}

describe('the expression editor', () => {
  it('shows each segment resolved, [not found] for undefined and [invalid (…)] for errors', async () => {
    setup(<Editor initial="=Hi {{ $json.name }}, {{ $json.missing }} {{ boom( }}" onChange={vi.fn()} />, lookup);
    const output = await screen.findByTestId('expression-modal-output');
    await waitFor(() => expect(output).toHaveTextContent('Hi Ada, [not found] [invalid (SyntaxError: Unexpected end)]'));
    const input = await screen.findByTestId('expression-modal-input');
    expect(input).toHaveTextContent('Hi {{ $json.name }}, {{ $json.missing }} {{ boom( }}');
  });

  it('inserts a clicked variable at the cursor, re-evaluates after the debounce and hands the value over on close', async () => {
    const onChange = vi.fn();
    const { resolveExpression } = setup(<Editor initial="=Name: " onChange={onChange} />, lookup);
    const selector = await screen.findByTestId('variable-selector');
    fireEvent.click(within(selector).getByText('Input Data'));
    fireEvent.click(within(selector).getByText('JSON'));
    // The cursor starts at the end of the expression.
    const input = await screen.findByTestId('expression-modal-input');
    fireEvent.click(within(selector).getByText('full name:'));
    await waitFor(() => expect(input).toHaveTextContent('Name: {{$json["full name"]}}'));
    await waitFor(() => expect(screen.getByTestId('expression-modal-output')).toHaveTextContent('Name: Ada L'), { timeout: 2000 });
    expect(resolveExpression).toHaveBeenCalledWith('={{$json["full name"]}}');
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /close/i }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith('=Name: {{$json["full name"]}}'));
  });

  it('filters the variables and leaves out the parameter being edited', async () => {
    setup(<Editor initial="=" onChange={vi.fn()} />, lookup);
    const selector = await screen.findByTestId('variable-selector');
    fireEvent.click(within(selector).getByText('Parameters'));
    expect(within(selector).getByText('keepOnlySet:')).toBeInTheDocument();
    expect(within(selector).queryByText('value:')).toBeNull();
    fireEvent.change(screen.getByTestId('variable-selector-filter'), { target: { value: 'FULL' } });
    expect(within(selector).getAllByText('full name:').map((el) => el.closest('button')?.dataset.expression)).toEqual(['$json["full name"]', '$node["Start"].json["full name"]']);
    expect(within(selector).queryByText('keepOnlySet:')).toBeNull();
    fireEvent.change(screen.getByTestId('variable-selector-filter'), { target: { value: 'zzz' } });
    expect(within(selector).getByText('No variables match the filter')).toBeInTheDocument();
  });

  it('changes nothing when read-only', async () => {
    const onChange = vi.fn();
    setup(<Editor initial="={{ $json.name }}" onChange={onChange} />, lookup, true);
    const input = await screen.findByTestId('expression-modal-input');
    expect(input).toHaveAttribute('contenteditable', 'false');
    fireEvent.click(screen.getByRole('button', { name: /close/i }));
    await act(async () => undefined);
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('the inline expression', () => {
  it.each([
    ['={{ $json.name }}', 'Ada'],
    ['={{ "" }}', '[empty]'],
    ['={{ $json.missing }}', '[empty]'],
    ['={{ boom( }}', '[ERROR: SyntaxError: Unexpected end]'],
  ])('shows %s and its value %s', async (value, preview) => {
    const onOpen = vi.fn();
    setup(<InlineExpression value={value} onOpen={onOpen} path="parameters.value" />, lookup);
    const inline = screen.getByTestId('inline-expression');
    expect(inline).toHaveTextContent(value.slice(1));
    await waitFor(() => expect(screen.getByTestId('inline-expression-preview')).toHaveTextContent(preview));
    fireEvent.click(inline);
    expect(onOpen).toHaveBeenCalledOnce();
  });
});

describe('the expression resolver', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts the workflow, run data and node, and shares identical calls of one editor state', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ data: { ok: true, value: 'Ada' } }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const probe: { resolve?: (expression: string) => Promise<EvaluationResult> } = {};
    function Probe() {
      const resolver = useExpressionResolver('Set');
      useEffect(() => {
        probe.resolve = resolver;
      });
      return null;
    }
    const { store } = setup(<Probe />, lookup);
    const resolve = probe.resolve;
    await expect(resolve?.('={{ $json.name }}')).resolves.toEqual({ ok: true, value: 'Ada' });
    await resolve?.('={{ $json.name }}');
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/rest\/expressions\/evaluate$/);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ nodeName: 'Set', expression: '={{ $json.name }}', runData, workflowData: { id: '9', name: 'Flow', active: false, connections: graph.connections } });
    expect((body.workflowData as { nodes: WorkflowNode[] }).nodes.map((n) => n.name)).toEqual(['Start', 'Set']);

    store.select(['Set']);
    await resolve?.('={{ $json.name }}');
    expect(fetch, 'a new selection changes nothing the server reads').toHaveBeenCalledOnce();
    store.setMeta({ name: 'Renamed' }, true);
    await resolve?.('={{ $json.name }}');
    expect(fetch).toHaveBeenCalledTimes(2);
    store.updateExecution((execution) => ({ ...execution, runData: {} }));
    await resolve?.('={{ $json.name }}');
    expect(fetch).toHaveBeenCalledTimes(3);

    fetch.mockImplementationOnce(async () => new Response(JSON.stringify({ code: 422, message: 'The node "Set" does not exist in the workflow' }), { status: 422 }));
    await expect(resolve?.('={{ 1 }}')).resolves.toEqual({ ok: false, kind: 'invalid', message: 'The node "Set" does not exist in the workflow' });
  });
});
