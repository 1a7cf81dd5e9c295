import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NodeTypeIndex, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { testType } from '@/core/workflow/testTypes';
import type { Graph } from '@/core/workflow/types';
import { NodeErrorView } from './NodeErrorView';
import { node, renderRunData } from './testHarness';

const httpType: NodeTypeDescription = {
  ...testType('httpRequest'),
  properties: [
    { name: 'url', displayName: 'URL', type: 'string' },
    { name: 'options', displayName: 'Options', type: 'collection', options: [{ name: 'timeout', displayName: 'Timeout', type: 'number' } as never] },
  ],
};
const graph: Graph = { nodes: [node('HTTP', 'httpRequest', { typeVersion: 2 })], connections: {} };
const details = new NodeTypeIndex([httpType]);

describe('node error view', () => {
  it('names the parameter of a message template by its display path and lists the details', () => {
    const error = {
      message: 'raw',
      description: 'The server took too long',
      httpCode: '504',
      timestamp: Date.UTC(2024, 0, 2, 3, 4, 5),
      context: { messageTemplate: 'Timed out in "%%PARAMETER%%"', parameter: 'options.timeout', itemIndex: 0, runIndex: 1 },
      stack: 'Error: raw\n    at request',
    };
    renderRunData(<NodeErrorView error={error} />, { graph, nodeName: 'HTTP', details });
    expect(screen.getByTestId('node-error-message')).toHaveTextContent('Error: Timed out in "Options > Timeout"');
    expect(screen.getByTestId('node-error-description')).toHaveTextContent('The server took too long');
    const detailsTable = screen.getByTestId('node-error-details');
    expect(detailsTable).toHaveTextContent('HTTP Code504');
    expect(detailsTable).toHaveTextContent('Item Index0');
    expect(detailsTable).toHaveTextContent('Run Index1');
    fireEvent.click(screen.getByText('Stack'));
    expect(screen.getByTestId('node-error-stack')).toHaveTextContent('at request');
  });

  it('says when the parameter cannot be found', () => {
    const error = { message: 'raw', context: { messageTemplate: 'Bad value in %%PARAMETER%%', parameter: 'nothing.here' } };
    renderRunData(<NodeErrorView error={error} />, { graph, nodeName: 'HTTP', details });
    expect(screen.getByTestId('node-error-message')).toHaveTextContent('Error: Bad value in Could not find parameter "nothing.here"');
  });

  it('shows a small cause as a tree and a large one as a notice', () => {
    renderRunData(<NodeErrorView error={{ message: 'failed', cause: { code: 'ECONNRESET' } }} />, { graph, nodeName: 'HTTP' });
    fireEvent.click(screen.getByText('Cause'));
    expect(screen.getByTestId('node-error-cause')).toHaveTextContent('"code": "ECONNRESET"');
  });

  it('does not display a cause above the size limit', () => {
    renderRunData(<NodeErrorView error={{ message: 'failed', cause: { body: 'x'.repeat(300_000) } }} />, { graph, nodeName: 'HTTP' });
    fireEvent.click(screen.getByText('Cause'));
    expect(screen.getByTestId('node-error-cause-too-large')).toHaveTextContent('The error cause is too large to be displayed');
    expect(screen.queryByTestId('node-error-cause')).toBeNull();
  });
});
