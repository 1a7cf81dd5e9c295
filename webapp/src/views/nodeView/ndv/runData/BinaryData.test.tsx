import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Graph } from '@/core/workflow/types';
import { OutputPanel } from './OutputPanel';
import { node, renderRunData, taskData } from './testHarness';

const graph: Graph = { nodes: [node('Read', 'set')], connections: {} };
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('binary data', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('switches to the binary view, lists entries and shows inline images and text', () => {
    const item = {
      json: { file: 'pixel' },
      binary: {
        image: { data: PIXEL, mimeType: 'image/png', fileName: 'pixel.png', fileExtension: 'png' },
        notes: { data: btoa('{"hello":"world"}'), mimeType: 'application/json', fileName: 'notes.json' },
      },
    };
    renderRunData(<OutputPanel />, { graph, nodeName: 'Read', runData: { Read: [taskData([[item]])] } });
    expect(screen.getByTestId('ndv-binary-data')).toBeInTheDocument();
    expect(screen.getByText('pixel.png')).toBeInTheDocument();
    expect(screen.getByText('image/png')).toBeInTheDocument();

    const views = screen.getAllByTestId('ndv-view-binary-data');
    fireEvent.click(views[0] as HTMLElement);
    expect(screen.getByTestId('binary-data-image')).toHaveAttribute('src', `data:image/png;base64,${PIXEL}`);
    fireEvent.click(screen.getByTestId('binary-data-back'));
    fireEvent.click(screen.getAllByTestId('ndv-view-binary-data')[1] as HTMLElement);
    expect(screen.getByTestId('binary-data-text').textContent).toBe('{\n  "hello": "world"\n}');
  });

  it('fetches stored binary data by id', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ data: btoa('stored text') }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const item = { json: {}, binary: { data: { id: 'bin-7', mimeType: 'text/plain', fileName: 'a.txt' } } };
    renderRunData(<OutputPanel />, { graph, nodeName: 'Read', runData: { Read: [taskData([[item]])] } });
    fireEvent.click(screen.getByTestId('ndv-view-binary-data'));
    expect(screen.getByText('Loading binary data...')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('binary-data-text')).toHaveTextContent('stored text'));
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/rest/data/bin-7');
  });

  it('says when stored binary data cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ message: 'gone' }), { status: 404 })));
    const item = { json: {}, binary: { data: { id: 'missing', mimeType: 'image/png' } } };
    renderRunData(<OutputPanel />, { graph, nodeName: 'Read', runData: { Read: [taskData([[item]])] } });
    fireEvent.click(screen.getByTestId('ndv-view-binary-data'));
    expect(await screen.findByText('Error loading binary data')).toBeInTheDocument();
  });
});
