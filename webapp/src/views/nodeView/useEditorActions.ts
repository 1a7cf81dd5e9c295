import { useLayoutEffect, useMemo, useRef } from 'react';
import { nodeEndpoints } from '@/core/workflow/nodeEndpoints';
import { clipboardJson, isWorkflowUrl, parseWorkflowData, workflowDataOf } from '@/core/workflow/clipboard';
import { DEFAULT_LAST_CLICK_POSITION } from '@/core/workflow/canvas';
import { importPosition } from '@/core/workflow/placement';
import type { GraphChange } from '@/core/workflow/changes';
import {
  planAddNode,
  planConnect,
  planDeleteNodes,
  planDuplicate,
  planImport,
  planRename,
  planToggleDisabled,
  type Plan,
} from '@/core/workflow/edits';
import type { EditorStore } from '@/core/editor/store';
import { STICKY_NOTE_TYPE, type NodeTypeIndex } from '@/core/workflow/nodeTypes';
import type { Connection, Graph, Position } from '@/core/workflow/types';
import { workflowFromUrl } from '@/api/workflows';
import { i18n } from '@/i18n';
import { showToast } from '@/components/toast';
import { errorMessage, showMaxNodesError, showReadOnlyError, showSkippedNodes } from './editorToasts';
import { confirmModal } from '@/components/confirm';

/** Where a node picked in the creator goes. */
export interface InsertContext {
  source?: { node: string; outputIndex: number };
  splitConnection?: Connection;
  /** Canvas position for nodes not attached to a source (a drop point). */
  position?: Position;
}

/** The screen-level UI the actions drive; set by the node view. */
export interface EditorUi {
  openCreator: (context?: InsertContext) => void;
  closeCreator: () => void;
  openNode: (name: string) => void;
  startRename: (name: string) => void;
  runWorkflow: (destinationNode?: string) => void;
}

export interface EditorActions {
  addNode: (typeName: string, context?: InsertContext) => boolean;
  connect: (connection: Connection) => void;
  removeConnection: (connection: Connection) => void;
  moveNodes: (moves: ReadonlyArray<{ name: string; position: Position }>) => void;
  deleteNodes: (names: readonly string[]) => void;
  toggleDisabled: (names: readonly string[]) => void;
  duplicate: (names: readonly string[]) => void;
  rename: (from: string, to: string) => void;
  updateNode: (name: string, patch: GraphChange & { kind: 'updateNode' }) => void;
  undo: () => void;
  redo: () => void;
  copy: (cut: boolean) => Promise<void>;
  paste: (text: string) => Promise<void>;
  /** Adds workflow data (import from file or URL); true when something was added. */
  importData: (data: Graph) => boolean;
  setLastClick: (position: Position) => void;
  ui: EditorUi;
}

function newId(): string {
  return crypto.randomUUID?.() ?? `${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
}

/**
 * The editing operations of the canvas, keyboard and menus. Each plans typed changes in core and
 * applies them to the store; read-only views refuse with the persistent error.
 */
export function useEditorActions(store: EditorStore, index: NodeTypeIndex, readOnly: boolean, ui: EditorUi): EditorActions {
  const lastClick = useRef<Position>(DEFAULT_LAST_CLICK_POSITION);
  const uiRef = useRef(ui);
  useLayoutEffect(() => {
    uiRef.current = ui;
  });

  return useMemo(() => {
    const editable = (): boolean => {
      if (readOnly) showReadOnlyError();
      return !readOnly;
    };
    const applyPlan = (plan: Plan): boolean => {
      if (!plan.ok) {
        showMaxNodesError(plan.error);
        return false;
      }
      store.edit(plan.changes, { select: plan.names });
      if (plan.skipped) showSkippedNodes(plan.skipped);
      return plan.changes.length > 0;
    };
    const importData = (data: Graph): boolean => {
      if (!editable()) return false;
      const graph = store.getState().graph;
      // Beside the workflow when the last click spot would put the block on top of nodes.
      return applyPlan(planImport(graph, index, data, { position: importPosition(graph.nodes, data.nodes, lastClick.current), newId }));
    };
    const selectedOrAll = () => store.getState().selected;

    const actions: EditorActions = {
      addNode(typeName, context = {}) {
        if (!editable()) return false;
        const type = index.get(typeName);
        if (!type) {
          showToast({ type: 'error', title: i18n.t('nodeView.addNodeError.title'), message: i18n.t('nodeView.addNodeError.message', { type: typeName }) });
          return false;
        }
        const graph = store.getState().graph;
        const selected = store.getState().selected;
        const last = selected[selected.length - 1];
        // Without an explicit place, a new node follows the last selected node like n8n's editor.
        const source = context.source ?? (!context.position && !context.splitConnection && last !== undefined ? { node: last, outputIndex: 0 } : undefined);
        const sourceNode = source ? graph.nodes.find((n) => n.name === source.node) : undefined;
        const sourceType = sourceNode ? index.forNode(sourceNode) : undefined;
        const usableSource = source && sourceNode && sourceType && nodeEndpoints(sourceType, sourceNode).outputs > 0 ? source : undefined;
        return applyPlan(
          planAddNode(graph, index, {
            type,
            position: context.position ?? lastClick.current,
            source: usableSource,
            splitConnection: context.splitConnection,
            newId,
            parameters: type.name === STICKY_NOTE_TYPE ? { content: i18n.t('sticky.defaultContent') } : undefined,
          }),
        );
      },
      connect(connection) {
        if (!editable()) return;
        store.edit(planConnect(store.getState().graph, connection));
      },
      removeConnection(connection) {
        if (!editable()) return;
        store.edit([{ kind: 'removeConnection', connection }]);
      },
      moveNodes(moves) {
        if (readOnly) return;
        const graph = store.getState().graph;
        const changes: GraphChange[] = moves
          .filter(({ name, position }) => {
            const node = graph.nodes.find((n) => n.name === name);
            return node && (node.position[0] !== position[0] || node.position[1] !== position[1]);
          })
          .map(({ name, position }) => ({ kind: 'moveNode', name, position }));
        store.edit(changes);
      },
      deleteNodes(names) {
        if (!editable()) return;
        store.edit(planDeleteNodes(store.getState().graph, names), { select: [] });
      },
      toggleDisabled(names) {
        if (!editable()) return;
        store.edit(planToggleDisabled(store.getState().graph, names));
      },
      duplicate(names) {
        if (!editable()) return;
        applyPlan(planDuplicate(store.getState().graph, index, names, newId));
      },
      rename(from, to) {
        if (!editable()) return;
        store.edit(planRename(store.getState().graph, from, to));
      },
      updateNode(_name, change) {
        if (!editable()) return;
        store.edit([change]);
      },
      undo() {
        if (editable()) store.undo();
      },
      redo() {
        if (editable()) store.redo();
      },
      async copy(cut) {
        const names = selectedOrAll();
        if (names.length === 0) return;
        if (cut && !editable()) return;
        await navigator.clipboard.writeText(clipboardJson(store.getState().graph, names));
        if (cut) actions.deleteNodes(names);
        else showToast({ type: 'success', title: i18n.t('nodeView.copied'), message: i18n.t('nodeView.copied.message', { count: names.length }) });
      },
      async paste(text) {
        if (!editable()) return;
        const trimmed = text.trim();
        if (isWorkflowUrl(trimmed)) {
          const confirmed = await confirmModal({
            title: i18n.t('nodeView.importUrl.confirmTitle'),
            message: i18n.t('nodeView.importUrl.confirmMessage', { url: trimmed }),
            confirm: i18n.t('nodeView.importUrl.confirm'),
            cancel: i18n.t('nodeView.importUrl.cancel'),
          });
          if (!confirmed) return;
          try {
            const data = workflowDataOf(await workflowFromUrl(trimmed));
            if (data) importData(data);
          } catch (error) {
            showToast({ type: 'error', title: i18n.t('nodeView.importUrl.error'), message: errorMessage(error) });
          }
          return;
        }
        // Pasted text that is not workflow data is ignored without a message (spec 001 §5).
        const data = parseWorkflowData(trimmed);
        if (data) importData(data);
      },
      importData,
      setLastClick(position) {
        lastClick.current = position;
      },
      get ui() {
        return uiRef.current;
      },
    };
    return actions;
  }, [store, index, readOnly]);
}
