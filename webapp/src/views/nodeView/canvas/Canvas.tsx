import {
  Background,
  BackgroundVariant,
  ConnectionLineType,
  ReactFlow,
  SelectionMode,
  useReactFlow,
  useStore,
  type Connection as RfConnection,
  type FinalConnectionState,
  type NodeChange,
} from '@xyflow/react';
import { useCallback, useMemo, useState, type DragEvent, type MouseEvent as ReactMouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GRID_SIZE, MAX_ZOOM, MIN_ZOOM, NODE_SIZE } from '@/core/workflow/canvas';
import { mainConnection } from '@/core/workflow/connections';
import { dropTargetInput } from '@/core/workflow/edits';
import type { Connection } from '@/core/workflow/types';
import { workflowIssues } from '@/core/workflow/nodeIssues';
import { useKnownCredentials } from '@/api/credentials';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import { CanvasEdgeComponent } from './CanvasEdge';
import { CanvasNodeComponent } from './CanvasNode';
import { CanvasTextContext, rememberingText } from './canvasText';
import { applyLocalChanges, applySelectionChanges, CanvasModel, EMPTY_LOCAL, type CanvasEdge, type CanvasNode, type LocalNodeState } from './model';
import { StickyNodeComponent } from './StickyNode';
import { FIT_VIEW_OPTIONS } from './viewport';
import classes from './canvas.module.css';

/** Declared at module scope so React Flow never sees new component types. */
const NODE_TYPES = { canvasNode: CanvasNodeComponent, stickyNote: StickyNodeComponent };
const EDGE_TYPES = { canvasEdge: CanvasEdgeComponent };
const SNAP_GRID: [number, number] = [GRID_SIZE, GRID_SIZE];
const MODIFIER_KEYS = ['Control', 'Meta'];
const PAN_BUTTONS = [1];
const MULTI_SELECT_KEYS = ['Shift', 'Control', 'Meta'];
const PRO_OPTIONS = { hideAttribution: true };

/** Below this zoom labels, toolbars and plus endpoints are too small to read and are not drawn. */
export const DETAIL_ZOOM = 0.45;

/**
 * Culling off-screen nodes costs a pass over every node and edge on each pan frame; below this
 * size drawing everything once is cheaper, and panning only moves one composited layer.
 */
const CULLING_THRESHOLD = 1500;

/** Drag payload of node types dragged out of the creator. */
export const NODE_TYPE_DRAG_FORMAT = 'application/x-flowmill-node-type';

function handleIndex(handle: string | null | undefined): number {
  const index = Number.parseInt((handle ?? '').split('-')[1] ?? '0', 10);
  return Number.isNaN(index) ? 0 : index;
}

/**
 * The workflow canvas on React Flow. Wheel pans (Shift swaps axes), Ctrl/Cmd with the wheel zooms
 * and Ctrl/Cmd with a drag pans; a plain drag on the background draws the selection rectangle.
 */
export function Canvas() {
  const { store, index, details, readOnly, actions } = useEditor();
  const graph = useEditorState((s) => s.graph);
  const selected = useEditorState((s) => s.selected);
  const execution = useEditorState((s) => s.execution);
  const flow = useReactFlow();
  const { t } = useTranslation();
  const text = useMemo(() => rememberingText((key, options) => (options ? t(key, options) : t(key))), [t]);
  const zoomedOut = useStore((state) => state.transform[2] < DETAIL_ZOOM);
  const [model] = useState(() => new CanvasModel());
  // React Flow needs every drag frame and its measurements; the store only gets the final
  // positions on drag end, so those live here until then.
  const [local, setLocal] = useState<LocalNodeState>(EMPTY_LOCAL);

  const credentials = useKnownCredentials();
  const issues = useMemo(() => workflowIssues(graph.nodes, index, details, credentials), [graph.nodes, index, details, credentials]);
  const derivedNodes = useMemo(() => model.nodes(graph, index, selected, execution, issues, details), [model, graph, index, selected, execution, issues, details]);
  const nodes = useMemo(() => model.withLocal(derivedNodes, local), [model, derivedNodes, local]);
  const edges = useMemo(() => model.edges(graph, execution), [model, graph, execution]);

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      setLocal((current) => applyLocalChanges(current, changes));
      const picks = changes.filter((change) => change.type === 'select');
      if (picks.length > 0) store.select(applySelectionChanges(store.getState().selected, picks));
    },
    [store],
  );

  const onNodeDragStop = useCallback(
    (_event: unknown, _node: CanvasNode, dragged: CanvasNode[]) => {
      actions.moveNodes(dragged.map((node) => ({ name: node.id, position: [node.position.x, node.position.y] })));
      setLocal((current) => ({ ...current, positions: new Map() }));
    },
    [actions],
  );

  const onSelectionDragStop = useCallback((event: ReactMouseEvent, dragged: CanvasNode[]) => onNodeDragStop(event, dragged[0] as CanvasNode, dragged), [onNodeDragStop]);

  const onNodeDoubleClick = useCallback(
    (_event: ReactMouseEvent, node: CanvasNode) => {
      if (node.type !== 'stickyNote') actions.ui.openNode(node.id);
    },
    [actions],
  );

  const onConnect = useCallback(
    (connection: RfConnection) => {
      actions.connect(mainConnection(connection.source, handleIndex(connection.sourceHandle), connection.target, handleIndex(connection.targetHandle)));
    },
    [actions],
  );

  const onConnectEnd = useCallback(
    (event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid || !state.fromNode || state.fromHandle?.type !== 'source') return;
      const point = 'changedTouches' in event ? event.changedTouches[0] : event;
      if (!point) return;
      const source = { node: state.fromNode.id, outputIndex: handleIndex(state.fromHandle.id) };
      const overNode = document.elementFromPoint(point.clientX, point.clientY)?.closest('.react-flow__node')?.getAttribute('data-id');
      if (overNode) {
        // Dropped on a node body: connect to its input when it has exactly one.
        const target = store.getState().graph.nodes.find((node) => node.name === overNode);
        const input = dropTargetInput(target ? index.forNode(target) : undefined);
        if (target && input !== null) actions.connect(mainConnection(source.node, source.outputIndex, target.name, input));
        return;
      }
      const position = flow.screenToFlowPosition({ x: point.clientX, y: point.clientY });
      actions.ui.openCreator({ source, position: [position.x, position.y - NODE_SIZE / 2] });
    },
    [actions, flow, index, store],
  );

  const onPaneClick = useCallback(
    (event: ReactMouseEvent) => {
      const position = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      actions.setLastClick([position.x, position.y]);
      actions.ui.closeCreator();
    },
    [actions, flow],
  );

  const onDrop = useCallback(
    (event: DragEvent) => {
      const typeName = event.dataTransfer.getData(NODE_TYPE_DRAG_FORMAT);
      if (!typeName) return;
      event.preventDefault();
      const position = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      // Dropped onto a connection: the new node goes between its two ends.
      const splitConnection = droppedOnConnection(event.target);
      actions.addNode(typeName, { position: [position.x - NODE_SIZE / 2, position.y - NODE_SIZE / 2], ...(splitConnection ? { splitConnection } : {}) });
    },
    [actions, flow],
  );

  return (
    <div className={classes.canvas} data-test-id="node-view" data-read-only={readOnly || undefined} data-zoomed-out={zoomedOut || undefined} onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
      <CanvasTextContext.Provider value={text}>
        <ReactFlow<CanvasNode, CanvasEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodesChange={onNodesChange}
          onNodeDragStop={onNodeDragStop}
          onSelectionDragStop={onSelectionDragStop}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          onPaneClick={onPaneClick}
          onNodeDoubleClick={onNodeDoubleClick}
          nodesDraggable={!readOnly}
          nodesConnectable={!readOnly}
          elementsSelectable
          // Arrow keys move the selection along connections (spec 001 §2), never the node.
          disableKeyboardA11y
          connectOnClick={false}
          snapToGrid
          snapGrid={SNAP_GRID}
          panOnScroll
          zoomOnScroll={false}
          zoomActivationKeyCode={MODIFIER_KEYS}
          panActivationKeyCode={MODIFIER_KEYS}
          panOnDrag={PAN_BUTTONS}
          selectionOnDrag
          selectionMode={SelectionMode.Partial}
          multiSelectionKeyCode={MULTI_SELECT_KEYS}
          deleteKeyCode={null}
          selectionKeyCode={null}
          zoomOnDoubleClick={false}
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          fitView
          fitViewOptions={FIT_VIEW_OPTIONS}
          onlyRenderVisibleElements={graph.nodes.length > CULLING_THRESHOLD}
          connectionLineType={ConnectionLineType.Bezier}
          connectionRadius={30}
          proOptions={PRO_OPTIONS}
        >
          {/* Zoomed far out the dots would be a few pixels apart and cost a full repaint per frame. */}
          {zoomedOut ? null : <Background variant={BackgroundVariant.Dots} gap={GRID_SIZE} size={1.2} color="#c9ced8" />}
        </ReactFlow>
      </CanvasTextContext.Provider>
    </div>
  );
}

/** The connection whose line an element belongs to, from the hit area's data attributes. */
function droppedOnConnection(target: EventTarget | null): Connection | undefined {
  const edge = target instanceof Element ? target.closest<SVGElement>('[data-test-id="canvas-edge"]') : null;
  const { source, target: to, sourceIndex, targetIndex } = edge?.dataset ?? {};
  if (!source || !to) return undefined;
  return mainConnection(source, Number(sourceIndex ?? 0), to, Number(targetIndex ?? 0));
}
