import { Center, Loader } from '@mantine/core';
import '@xyflow/react/dist/style.css';
import { getViewportForBounds, ReactFlowProvider, useReactFlow, useStoreApi } from '@xyflow/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useLocation, useNavigate } from 'react-router';
import { workflowCommands, type WorkflowCommand } from '@/core/editor/commands';
import { opensAfterAdding } from '@/core/editor/nodeCreator';
import { EditorStore } from '@/core/editor/store';
import { openedExecutionState } from '@/core/executions/status';
import { MIN_ZOOM, nodesBounds, STICKY_DEFAULT_HEIGHT, STICKY_DEFAULT_WIDTH } from '@/core/workflow/canvas';
import { freeSpotNear } from '@/core/workflow/placement';
import { STICKY_NOTE_TYPE } from '@/core/workflow/nodeTypes';
import type { Graph } from '@/core/workflow/types';
import { useNodeTypeDetails, useNodeTypes } from '@/api/nodeTypes';
import { nodeTypeKey } from '@/core/workflow/nodeIssues';
import { useSettings } from '@/api/settings';
import { showToast } from '@/components/toast';
import { Canvas } from './canvas/Canvas';
import { CanvasControls } from './canvas/CanvasControls';
import { FIT_VIEW_OPTIONS } from './canvas/viewport';
import { NodeCreator } from './creator/NodeCreator';
import { ImportFromUrlModal } from './dialogs/ImportFromUrlModal';
import { closeModal, openModal } from '@/components/modalHost';
import { RenameNodeModal } from './dialogs/RenameNodeModal';
import { EditorContext, type EditorContextValue, type EditorMode } from './EditorContext';
import { showReadOnlyError } from './editorToasts';
import { WorkflowHeader, type ExecutionInfo } from './header/WorkflowHeader';
import { useDemoFrame } from './useDemoFrame';
import { useEditorActions, type EditorUi, type InsertContext } from './useEditorActions';
import { useKeyboardShortcuts } from './useKeyboardShortcuts';
import { usePageTitle } from './usePageTitle';
import { useRunWorkflow } from './useRunWorkflow';
import { useWorkflowLoader } from './useWorkflowLoader';
import { useWorkflowOps } from './useWorkflowOps';
import { workflowBody } from './workflowData';
import classes from './NodeView.module.css';

/** The editor's own dialog; the named ones (open, duplicate, settings) open through the modal host. */
type Dialog = 'importUrl' | null;

// The node details view is its own chunk: the canvas opens and answers without it, and it is
// fetched once the editor has been idle a while (or when a node is first opened).
const loadNodeDetailsView = () => import('./ndv/NodeDetailsView');
const NodeDetailsView = lazy(() => loadNodeDetailsView().then((module) => ({ default: module.NodeDetailsView })));
const NDV_PRELOAD_DELAY = 5000;

/** The workflow editor screen: header, canvas, node creator and the workflow dialogs. */
export function NodeView({ mode }: { mode: EditorMode }) {
  return (
    <ReactFlowProvider>
      <NodeViewInner mode={mode} />
    </ReactFlowProvider>
  );
}

function executionInfo(execution: ReturnType<typeof useWorkflowLoader>['execution']): ExecutionInfo | undefined {
  if (!execution) return undefined;
  return { id: execution.id, status: openedExecutionState(execution) };
}

function NodeViewInner({ mode }: { mode: EditorMode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const flow = useReactFlow();
  const { types, index, isLoaded } = useNodeTypes();
  const { settings } = useSettings();
  const store = useMemo(() => new EditorStore(), []);
  const typeKey = useSyncExternalStore(store.subscribe, () => nodeTypeKey(store.getState().graph.nodes));
  const details = useNodeTypeDetails(typeKey);
  const readOnly = mode === 'execution' || mode === 'demo';
  const [creator, setCreator] = useState<InsertContext | null>(null);
  const [ndvNode, setNdvNode] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const location = useLocation();
  // The sidebar's Open, used away from the editor, lands here with the dialog requested.
  const [dialog, setDialog] = useState<Dialog>(null);
  const openDialogOnArrival = (location.state as { openDialog?: boolean } | null)?.openDialog === true;
  const fileInput = useRef<HTMLInputElement>(null);
  const run = useRunWorkflow(store, !readOnly, index, details);

  const ui: EditorUi = {
    openCreator: (context) => (readOnly ? showReadOnlyError() : setCreator(context ?? {})),
    closeCreator: () => setCreator(null),
    openNode: setNdvNode,
    startRename: (name) => (readOnly ? showReadOnlyError() : setRenaming(name)),
    runWorkflow: (destination) => void run.run(destination),
  };
  const actions = useEditorActions(store, index, readOnly, ui);
  const ops = useWorkflowOps(store, actions);
  const editor: EditorContextValue = useMemo(() => ({ store, types, index, details, mode, readOnly, actions }), [store, types, index, details, mode, readOnly, actions]);
  const flowStore = useStoreApi();
  // The view is fitted to a workflow before its nodes are first drawn (React Flow would fit it
  // only after measuring them): a large workflow is then laid out and painted once, zoomed out
  // with its unreadable details left undrawn, instead of first at full size and detail.
  const fitBeforeShow = useCallback(
    (graph: Graph) => {
      const bounds = nodesBounds(graph.nodes);
      const { width, height } = flowStore.getState();
      if (!bounds || width === 0 || height === 0) return;
      void flow.setViewport(getViewportForBounds(bounds, width, height, MIN_ZOOM, FIT_VIEW_OPTIONS.maxZoom, FIT_VIEW_OPTIONS.padding));
    },
    [flow, flowStore],
  );
  const loader = useWorkflowLoader(mode, store, index, isLoaded, fitBeforeShow);
  usePageTitle(store);
  useDemoFrame(mode === 'demo', store, settings.versionCli, ndvNode, () => void flow.fitView(FIT_VIEW_OPTIONS));

  useEffect(() => {
    if (!loader.loading) void flow.fitView(FIT_VIEW_OPTIONS);
  }, [loader.loading, flow]);

  useEffect(() => {
    let idle: number | undefined;
    const timer = window.setTimeout(() => {
      if ('requestIdleCallback' in window) idle = window.requestIdleCallback(() => void loadNodeDetailsView());
      else void loadNodeDetailsView();
    }, NDV_PRELOAD_DELAY);
    return () => {
      window.clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, []);

  const openWorkflow = useCallback(
    (id: string) => {
      if (id === store.getState().meta.id) {
        showToast({ type: 'error', title: t('workflowOpen.alreadyOpen'), message: t('workflowOpen.alreadyOpenMessage'), autoClose: 1500 });
        return;
      }
      closeModal('workflowOpen', 'confirmed');
      void navigate(`/workflow/${id}`);
    },
    [navigate, store, t],
  );

  // The open dialog asked for on arrival (the sidebar's Open from another page).
  useEffect(() => {
    if (openDialogOnArrival) openModal('workflowOpen', { onOpen: openWorkflow });
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const openSettings = useCallback(() => {
    const { id, name, settings } = store.getState().meta;
    if (id === null) return;
    openModal('settings', {
      workflowId: id,
      workflowName: name,
      settings,
      onSave: async (next) => {
        const ok = await ops.patch({ settings: next });
        if (ok) store.setMeta({ settings: next }, false);
        return ok;
      },
    });
  }, [ops, store]);

  const newWorkflow = useCallback(() => void navigate('/workflow', { state: { newToast: true } }), [navigate]);

  const onCommand = useCallback(
    (command: WorkflowCommand) => {
      switch (command) {
        case 'new':
          newWorkflow();
          break;
        case 'open':
          openModal('workflowOpen', { onOpen: openWorkflow });
          break;
        case 'save':
          void ops.save();
          break;
        case 'duplicate':
          openModal('duplicate', { name: store.getState().meta.name, body: () => workflowBody(store.getState()) });
          break;
        case 'settings':
          openSettings();
          break;
        case 'importUrl':
          setDialog(command);
          break;
        case 'delete':
          void ops.remove();
          break;
        case 'download':
          ops.download();
          break;
        case 'importFile':
          fileInput.current?.click();
          break;
      }
    },
    [newWorkflow, ops, openWorkflow, openSettings, store],
  );

  const hasWorkflow = useSyncedMeta(store);
  useEffect(() => {
    if (mode === 'demo') return undefined;
    return workflowCommands.register(onCommand, { onWorkflowPage: !readOnly, hasWorkflow });
  }, [onCommand, mode, readOnly, hasWorkflow]);

  useUnsavedChangesGuard(store, ops.confirmLeave);

  useKeyboardShortcuts(editor, {
    save: () => void ops.save(),
    open: () => openModal('workflowOpen', { onOpen: openWorkflow }),
    newWorkflow,
    toggleCreator: () => setCreator((current) => (current ? null : {})),
    closePanels: () => {
      setCreator(null);
      setNdvNode(null);
    },
    ndvOpen: () => ndvNode !== null,
  });

  const addSticky = () => {
    const bounds = document.querySelector('[data-test-id="node-view"]')?.getBoundingClientRect();
    const center = bounds ? flow.screenToFlowPosition({ x: bounds.left + bounds.width / 2, y: bounds.top + bounds.height / 2 }) : { x: 0, y: 0 };
    const topLeft = bounds ? flow.screenToFlowPosition({ x: bounds.left, y: bounds.top }) : undefined;
    const bottomRight = bounds ? flow.screenToFlowPosition({ x: bounds.right, y: bounds.bottom }) : undefined;
    const visible = topLeft && bottomRight ? { x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y } : undefined;
    // Centred in the view when that spot is free, otherwise in the nearest free space in view (never over a node).
    const size = { width: STICKY_DEFAULT_WIDTH, height: STICKY_DEFAULT_HEIGHT };
    const position = freeSpotNear(store.getState().graph.nodes, [center.x - size.width / 2, center.y - size.height / 2], size, visible);
    actions.addNode(STICKY_NOTE_TYPE, { position });
  };

  return (
    <EditorContext.Provider value={editor}>
      <div className={classes.view} data-mode={mode}>
        {mode !== 'demo' ? <WorkflowHeader ops={ops} execution={executionInfo(loader.execution)} /> : null}
        <Canvas />
        <CanvasControls onAddSticky={addSticky} onStop={() => void run.stop()} onClearExecution={run.clear} />
        {loader.loading || !isLoaded ? (
          <Center className={classes.loading}>
            <Loader />
          </Center>
        ) : null}
        {creator && !readOnly ? (
          <NodeCreator
            onClose={() => setCreator(null)}
            onSelect={(type) => {
              if (!actions.addNode(type.name, creator)) return;
              setCreator(null);
              // The added node is the one selected; its details open, as in n8n.
              const added = store.getState().selected.at(-1);
              if (added !== undefined && opensAfterAdding(type.name)) setNdvNode(added);
            }}
          />
        ) : null}
        {ndvNode !== null ? (
          <Suspense fallback={null}>
            <NodeDetailsView nodeName={ndvNode} onClose={() => setNdvNode(null)} onRun={(destination) => void run.run(destination)} onStop={() => void run.stop()} />
          </Suspense>
        ) : null}
        {renaming !== null ? <RenameNodeModal name={renaming} onRename={(name) => actions.rename(renaming, name)} onClose={() => setRenaming(null)} /> : null}
        {dialog === 'importUrl' ? <ImportFromUrlModal onImport={ops.importFromUrl} onClose={() => setDialog(null)} /> : null}
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          data-test-id="workflow-import-input"
          aria-label={t('workflow.import.file')}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (file) void ops.importFromFile(file);
          }}
        />
      </div>
    </EditorContext.Provider>
  );
}

/** Whether the open workflow is saved, re-rendering when that changes. */
function useSyncedMeta(store: EditorStore): boolean {
  const [saved, setSaved] = useState(store.getState().meta.id !== null);
  useEffect(() => store.subscribe(() => setSaved(store.getState().meta.id !== null)), [store]);
  return saved;
}

/** Asks before leaving with unsaved changes: in-app navigation through a dialog, reloads through the browser. */
function useUnsavedChangesGuard(store: EditorStore, confirmLeave: () => Promise<boolean>): void {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!store.getState().dirty) return false;
    return currentLocation.pathname !== nextLocation.pathname || currentLocation.key !== nextLocation.key;
  });
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirmLeave().then((go) => (go ? blocker.proceed() : blocker.reset()));
  }, [blocker, confirmLeave]);
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!store.getState().dirty) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [store]);
}
