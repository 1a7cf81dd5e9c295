import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { addConnection, mainConnection } from '@/core/workflow/connections';
import type { Graph } from '@/core/workflow/types';
import { InputPanel } from './InputPanel';
import { OutputPanel } from './OutputPanel';
import { items, node, renderRunData, taskData } from './testHarness';

const graph: Graph = {
  nodes: [node('Trigger', 'manualTrigger'), node('Set', 'set'), node('Set1', 'set'), node('Lonely', 'noOp')],
  connections: addConnection(addConnection({}, mainConnection('Trigger', 0, 'Set', 0)), mainConnection('Set', 0, 'Set1', 0)),
};

function firstCells(panel: HTMLElement): string[] {
  return [...within(panel).getByTestId('ndv-data-table').querySelectorAll('tbody tr td:first-child')].map((td) => td.textContent ?? '');
}

/** Picks an option of a Mantine Select from the list the select controls. */
async function chooseOption(select: HTMLElement, name: string) {
  fireEvent.click(select);
  const list = await waitFor(() => {
    const found = document.getElementById(select.getAttribute('aria-controls') ?? '');
    if (!found) throw new Error('option list not open');
    return found;
  });
  fireEvent.click(within(list).getByRole('option', { name, hidden: true }));
}

describe('input panel', () => {
  beforeAll(() => {
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  it('shows the parent on input 0 and switches to another upstream node', async () => {
    const runData = { Trigger: [taskData([items(1, () => ({ from: 'trigger' }))])], Set: [taskData([items(2, (i) => ({ from: `set ${i}` }))])] };
    renderRunData(<InputPanel />, { graph, nodeName: 'Set1', runData });
    const panel = screen.getByTestId('ndv-input-panel');
    expect(firstCells(panel)).toEqual(['set 0', 'set 1']);
    fireEvent.click(screen.getByTestId('ndv-input-select'));
    const options = await screen.findAllByTestId('ndv-input-option');
    expect(options.map((option) => option.textContent)).toEqual(['Set(1 node back)', 'Trigger(2 nodes back)']);
    fireEvent.click(options[1] as HTMLElement);
    expect(firstCells(panel)).toEqual(['trigger']);
  });

  it('asks to connect a node without parents', () => {
    renderRunData(<InputPanel />, { graph, nodeName: 'Lonely' });
    expect(screen.getByText('Wire me up')).toBeInTheDocument();
    expect(screen.getByTestId('ndv-input-learn-more')).toHaveAttribute('href', 'https://docs.n8n.io/workflows/connections/');
  });

  it('offers to execute the previous nodes when the parent has no data', () => {
    const { ndv } = renderRunData(<InputPanel />, { graph, nodeName: 'Set1' });
    expect(screen.getByText('No input data yet')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('execute-previous-node'));
    expect(ndv.runTo).toHaveBeenCalledWith('Set');
  });

  it('shows a waiting state while the workflow runs', () => {
    renderRunData(<InputPanel />, { graph, nodeName: 'Set1', execution: { status: 'running', runData: {} } });
    expect(screen.getByTestId('ndv-input-waiting')).toHaveTextContent('Waiting to execute...');
  });
});

describe('run linking between the panes', () => {
  beforeAll(() => {
    Element.prototype.scrollIntoView ??= () => undefined;
  });

  const runData = {
    Set: [taskData([items(1, () => ({ input: 'first' }))]), taskData([items(1, () => ({ input: 'second' }))])],
    Set1: [taskData([items(1, () => ({ output: 'first' }))]), taskData([items(1, () => ({ output: 'second' }))])],
  };

  it('moves the input run with the output run while linked, and not after unlinking', async () => {
    renderRunData(
      <>
        <InputPanel />
        <OutputPanel />
      </>,
      { graph, nodeName: 'Set1', runData },
    );
    const input = screen.getByTestId('ndv-input-panel');
    const output = screen.getByTestId('output-panel');
    expect(firstCells(input)).toEqual(['second']);
    await chooseOption(within(output).getByTestId('run-selector'), '1 of 2 (1 item)');
    expect(firstCells(output)).toEqual(['first']);
    expect(firstCells(input)).toEqual(['first']);

    fireEvent.click(within(output).getByTestId('unlink-run'));
    expect(within(input).getByTestId('link-run')).toBeInTheDocument();
    await chooseOption(within(output).getByTestId('run-selector'), '2 of 2 (1 item)');
    expect(firstCells(output)).toEqual(['second']);
    expect(firstCells(input)).toEqual(['first']);
  });

  it('offers no link when the run counts differ', () => {
    renderRunData(<OutputPanel />, { graph, nodeName: 'Set1', runData: { ...runData, Set: [taskData([items(1)])] } });
    expect(screen.queryByTestId('unlink-run')).toBeNull();
    expect(screen.queryByTestId('link-run')).toBeNull();
  });
});
