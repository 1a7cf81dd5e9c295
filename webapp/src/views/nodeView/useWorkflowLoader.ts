import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { newWorkflowSettings } from '@/core/workflow/executionOrder';
import { START_NODE_POSITION, STICKY_DEFAULT_HEIGHT, STICKY_DEFAULT_WIDTH } from '@/core/workflow/canvas';
import { workflowDataOf } from '@/core/workflow/clipboard';
import { createNode } from '@/core/workflow/edits';
import { DEFAULT_WORKFLOW_NAME } from '@/core/workflow/naming';
import { START_NODE_TYPE, STICKY_NOTE_TYPE, type NodeTypeIndex } from '@/core/workflow/nodeTypes';
import type { EditorStore } from '@/core/editor/store';
import type { Graph, WorkflowNode } from '@/core/workflow/types';
import { getExecution, type StoredExecution } from '@/api/executions';
import { listCredentials } from '@/api/credentials';
import { usePrefetchNodeTypeDetails } from '@/api/nodeTypes';
import { preloadNodeIcons, prefetchIconTable } from '@/components/nodeIcons';
import { nodeTypeKey } from '@/core/workflow/nodeIssues';
import { getWorkflow, newWorkflowName } from '@/api/workflows';
import { matchNodeCredentials } from '@/core/parameters/credentials';
import { openedExecutionNotices } from '@/core/executions/opened';
import type { StoredWorkflow } from '@/core/workflow/types';
import { showToast } from '@/components/toast';
import { showOpenedExecutionNotices } from './executionToasts';
import { i18n } from '@/i18n';
import type { EditorMode } from './EditorContext';
import { errorMessage } from './editorToasts';
import { stopWaitingForWebhook } from './useRunWorkflow';
import { takeEarlyWorkflow } from './openingPrefetch';

/** A new workflow starts with the Start node, and the welcome note when onboarding is on. */
function newWorkflowGraph(index: NodeTypeIndex, onboarding: boolean): Graph {
  const nodes: WorkflowNode[] = [];
  const start = index.get(START_NODE_TYPE);
  if (start) nodes.push(createNode(start, start.defaults.name, START_NODE_POSITION));
  const sticky = index.get(STICKY_NOTE_TYPE);
  if (onboarding && sticky) {
    const note = createNode(sticky, 'Note', [START_NODE_POSITION[0] - 40, START_NODE_POSITION[1] - STICKY_DEFAULT_HEIGHT - 40]);
    note.parameters = { content: i18n.t('onboarding.welcomeSticky'), width: STICKY_DEFAULT_WIDTH, height: STICKY_DEFAULT_HEIGHT };
    nodes.push(note);
  }
  return { nodes, connections: {} };
}

/** How long opening a workflow waits for its icons before drawing the cards without them (ms). */
const ICON_WAIT = 300;

/**
 * Fetches what the canvas draws a workflow's nodes with — the full descriptions of their types
 * (subtitles, issues) and their font icons — before the workflow is put into the store, so 500
 * cards are drawn once, complete, rather than drawn and then redrawn as each part arrives. A failed
 * call is left to the hooks that ask again; icons that are slow to come are not waited for.
 */
function usePrepareNodes(): (nodes: readonly WorkflowNode[]) => Promise<void> {
  const prefetchDetails = usePrefetchNodeTypeDetails();
  return useCallback(
    async (nodes: readonly WorkflowNode[]) => {
      const details = await prefetchDetails(nodeTypeKey(nodes));
      const icons = preloadNodeIcons(details ?? []);
      await Promise.race([icons, new Promise((resolve) => setTimeout(resolve, ICON_WAIT))]);
    },
    [prefetchDetails],
  );
}

export interface LoaderState {
  loading: boolean;
  execution: StoredExecution | null;
}

/**
 * Loads what the route names into the store: a new workflow, a saved one, or a past execution.
 * `beforeShow` gets each graph just before the store does (the view is fitted to it there).
 */
export function useWorkflowLoader(mode: EditorMode, store: EditorStore, index: NodeTypeIndex, typesLoaded: boolean, beforeShow?: (graph: Graph) => void): LoaderState {
  const { t } = useTranslation();
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [done, setDone] = useState<{ key: string; execution: StoredExecution | null } | null>(null);
  const generation = useRef(0);
  const beforeShowRef = useRef(beforeShow);
  useLayoutEffect(() => {
    beforeShowRef.current = beforeShow;
  });
  // A template opened with "Use this workflow" arrives as the new workflow's content.
  const locationState = location.state as { newToast?: boolean; template?: { name: string; workflow: unknown } } | null;

  const workflowId = mode === 'existing' ? (params.name ?? null) : null;
  const executionId = mode === 'execution' ? (params.id ?? null) : null;
  const freshKey = mode === 'new' ? location.key : null;
  const key = `${mode}|${workflowId}|${executionId}|${freshKey}`;
  // The saved workflow is fetched at once, in parallel with the node types it is drawn with.
  const [fetched, setFetched] = useState<{ id: string; workflow?: StoredWorkflow; error?: unknown } | null>(null);
  const prepareNodes = usePrepareNodes();
  useEffect(() => {
    if (mode !== 'existing' || workflowId === null || store.getState().meta.id === workflowId) return undefined;
    let live = true;
    prefetchIconTable();
    // Credential references are matched against the user's credentials as the workflow opens.
    const workflowRequest = takeEarlyWorkflow(workflowId).then((early) => early ?? getWorkflow(workflowId));
    Promise.all([workflowRequest, listCredentials().catch(() => null)])
      .then(async ([workflow, credentials]) => {
        const nodes = matchNodeCredentials(workflow.nodes ?? [], credentials);
        await prepareNodes(nodes);
        return { ...workflow, nodes };
      })
      .then(
        (workflow) => live && setFetched({ id: workflowId, workflow }),
        (error: unknown) => live && setFetched({ id: workflowId, error }),
      );
    return () => {
      live = false;
    };
  }, [mode, workflowId, store, prepareNodes]);

  useEffect(() => {
    if (!typesLoaded || mode === 'demo') return;
    const run = ++generation.current;
    const live = () => run === generation.current;
    const show = (meta: Parameters<EditorStore['load']>[0], graph: Graph) => {
      beforeShowRef.current?.(graph);
      store.load(meta, graph);
    };
    // Opening another workflow first ends a pending test webhook wait (spec 001 §4).
    const opensAnother = !(mode === 'existing' && store.getState().meta.id === workflowId);
    if (opensAnother) void stopWaitingForWebhook(store);

    if (mode === 'existing' && workflowId !== null) {
      // The first save moves to the saved workflow's route; the store already holds it.
      if (store.getState().meta.id === workflowId) return;
      if (fetched?.id !== workflowId) return;
      if (fetched.workflow) {
        const workflow = fetched.workflow;
        show(
          { id: workflow.id, name: workflow.name, active: workflow.active, tagIds: workflow.tags.map((tag) => tag.id), settings: workflow.settings ?? {} },
          { nodes: workflow.nodes ?? [], connections: workflow.connections ?? {} },
        );
        // Loaded now counts as done: the store holds the route's workflow (see `loaded` below).
      } else {
        showToast({ type: 'error', title: t('workflow.openError'), message: errorMessage(fetched.error) });
        void navigate('/workflow', { replace: true });
      }
      return;
    }

    if (mode === 'execution' && executionId !== null) {
      prefetchIconTable();
      getExecution(executionId)
        .then(async (execution) => {
          await prepareNodes(execution.workflowData.nodes);
          return execution;
        })
        .then((execution) => {
          if (!live()) return;
          const { workflowData } = execution;
          show({ id: workflowData.id ?? null, name: workflowData.name, settings: workflowData.settings ?? {} }, { nodes: workflowData.nodes, connections: workflowData.connections });
          const runData = execution.data?.resultData?.runData ?? {};
          // The stored result makes the canvas show where a waiting execution stopped.
          const result = execution.data ? { ...execution, data: execution.data } : null;
          store.updateExecution((current) => ({ ...current, status: 'idle', executionId: execution.id, runData, result }));
          setDone({ key, execution });
          showOpenedExecutionNotices(openedExecutionNotices(execution));
        })
        .catch((error: unknown) => {
          if (!live()) return;
          showToast({ type: 'error', title: t('execution.openError'), message: errorMessage(error) });
          setDone({ key, execution: null });
          void navigate('/workflow', { replace: true });
        });
      return;
    }

    if (mode === 'new' && locationState?.template) {
      const { name, workflow } = locationState.template;
      const graph = workflowDataOf(workflow);
      if (graph) {
        Promise.all([newWorkflowName(name).catch(() => ({ name })), prepareNodes(graph.nodes)]).then(([answer]) => {
          if (!live()) return;
          // Imported, not saved: the unsaved-changes flag is set (spec 000 §4).
          beforeShowRef.current?.(graph);
          store.load({ name: answer.name }, graph, true);
          setDone({ key, execution: null });
        });
        return;
      }
      showToast({ type: 'error', title: t('templates.couldntImportWorkflow'), message: t('templates.workflowsNotFound') });
    }

    if (mode === 'new') {
      newWorkflowName()
        .catch(() => ({ name: DEFAULT_WORKFLOW_NAME, onboardingFlowEnabled: false }))
        .then((answer) => {
          if (!live()) return;
          show({ name: answer.name, settings: newWorkflowSettings() }, newWorkflowGraph(index, answer.onboardingFlowEnabled));
          setDone({ key, execution: null });
          if (locationState?.newToast) showToast({ type: 'success', title: t('workflow.new.created'), message: t('workflow.new.createdMessage') });
        });
    }
    // locationState is read when the key changes; it belongs to that navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, mode, workflowId, executionId, typesLoaded, store, index, navigate, t, fetched, prepareNodes]);

  const loaded = done?.key === key || mode === 'demo' || (mode === 'existing' && store.getState().meta.id === workflowId);
  return { loading: !loaded, execution: done?.key === key ? done.execution : null };
}
