import { nodeForSave } from '@/core/workflow/clipboard';
import type { EditorState } from '@/core/editor/store';
import type { WorkflowBody } from '@/api/workflows';

/** The body that saves the editor's workflow (spec 002 §7: nodes stripped for saving, tags as ids). */
export function workflowBody(state: EditorState): WorkflowBody {
  return {
    name: state.meta.name,
    nodes: state.graph.nodes.map(nodeForSave),
    connections: state.graph.connections,
    settings: state.meta.settings,
    tags: state.meta.tagIds,
  };
}
