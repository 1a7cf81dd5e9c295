import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { IDLE_EXECUTION, type ExecutionState } from '@/core/editor/execution';
import { EditorStore, initialEditorState } from '@/core/editor/store';
import type { TaskData } from '@/core/push/messages';
import type { RunItem } from '@/core/runData/runs';
import type { NodeTypeIndex } from '@/core/workflow/nodeTypes';
import { TEST_INDEX, TEST_TYPES } from '@/core/workflow/testTypes';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import { renderWithProviders } from '@/test/renderApp';
import { EditorContext, type EditorContextValue } from '@/views/nodeView/EditorContext';
import type { EditorActions } from '@/views/nodeView/useEditorActions';
import { NdvContext, type NdvServices } from '@/views/nodeView/ndv/NdvContext';
import { RunDataProvider } from './RunDataProvider';

export function node(name: string, type: string, extra: Partial<WorkflowNode> = {}): WorkflowNode {
  return { name, type: `n8n-nodes-base.${type}`, typeVersion: 1, position: [0, 0], parameters: {}, ...extra };
}

/** A run with the given outputs, started at `startTime`. */
export function taskData(outputs: RunItem[][], extra: Partial<TaskData> = {}): TaskData {
  return { startTime: 1_000, executionTime: 12, source: [], data: { main: outputs }, ...extra };
}

export function items(count: number, make: (index: number) => Record<string, unknown> = (i) => ({ id: i + 1, name: `Item ${i + 1}` })): RunItem[] {
  return Array.from({ length: count }, (_, i) => ({ json: make(i) }));
}

export interface Harness {
  store: EditorStore;
  ndv: NdvServices;
}

/** Renders run-data UI for the open node `nodeName` inside the editor and NDV contexts. */
export function renderRunData(ui: ReactNode, options: { graph: Graph; nodeName: string; runData?: Record<string, TaskData[]>; execution?: Partial<ExecutionState>; details?: NodeTypeIndex }): Harness {
  const store = new EditorStore(initialEditorState({}, options.graph));
  store.updateExecution(() => ({ ...IDLE_EXECUTION, runData: options.runData ?? null, ...options.execution }));
  const editor: EditorContextValue = {
    store,
    types: TEST_TYPES,
    index: TEST_INDEX,
    details: options.details ?? null,
    mode: 'existing',
    readOnly: false,
    actions: {} as EditorActions,
  };
  const ndv: NdvServices = {
    nodeName: options.nodeName,
    readOnly: false,
    sessionId: 'ndv-test',
    openExpressionEditor: vi.fn(),
    resolveExpression: vi.fn(),
    runTo: vi.fn(),
    completionData: () => ({ inputFields: [], nodeNames: [], nodeFields: {} }),
  };
  renderWithProviders(
    <EditorContext.Provider value={editor}>
      <NdvContext.Provider value={ndv}>
        <RunDataProvider nodeName={options.nodeName}>{ui}</RunDataProvider>
      </NdvContext.Provider>
    </EditorContext.Provider>,
  );
  return { store, ndv };
}
