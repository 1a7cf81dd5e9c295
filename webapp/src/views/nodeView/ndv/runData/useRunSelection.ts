import { useMemo } from 'react';
import type { TaskData } from '@/core/push/messages';
import { inputNodeOptions, resolveInputNode, type InputNodeOption } from '@/core/runData/inputNodes';
import { resolveRunIndex } from '@/core/runData/runs';
import { canLinkRuns, inputRunChoice } from '@/core/runData/viewState';
import { useEditorState } from '@/views/nodeView/EditorContext';
import { useRunDataView } from './runDataViewContext';

const NO_RUNS: readonly TaskData[] = [];

export interface RunSelection {
  outputRuns: readonly TaskData[];
  outputRunIndex: number;
  inputOptions: InputNodeOption[];
  inputNode: string | null;
  inputRuns: readonly TaskData[];
  inputRunIndex: number;
  canLink: boolean;
  linked: boolean;
}

/** The runs both panes show for the open node, with the run link applied (spec 001 §4). */
export function useRunSelection(nodeName: string): RunSelection {
  const { state } = useRunDataView();
  const connections = useEditorState((s) => s.graph.connections);
  const outputRuns = useEditorState((s) => s.execution.runData?.[nodeName]) ?? NO_RUNS;
  const inputOptions = useMemo(() => inputNodeOptions(connections, nodeName), [connections, nodeName]);
  const inputNode = useMemo(() => resolveInputNode(connections, nodeName, state.inputNode), [connections, nodeName, state.inputNode]);
  const inputRuns = useEditorState((s) => (inputNode === null ? undefined : s.execution.runData?.[inputNode])) ?? NO_RUNS;
  const canLink = canLinkRuns(outputRuns.length, inputRuns.length);
  return {
    outputRuns,
    outputRunIndex: resolveRunIndex(state.outputRun, outputRuns.length),
    inputOptions,
    inputNode,
    inputRuns,
    inputRunIndex: resolveRunIndex(inputRunChoice(state, canLink), inputRuns.length),
    canLink,
    linked: state.linked,
  };
}
