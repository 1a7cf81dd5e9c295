import { getWorkflow } from '@/api/workflows';
import { preloadNodeIcons, prefetchIconTable } from '@/components/nodeIcons';
import { preloadNodeTypeDetails, preloadNodeTypes } from '@/api/nodeTypes';
import { nodeTypeKey } from '@/core/workflow/typeKey';
import type { StoredWorkflow } from '@/core/workflow/types';

/** An editor route opening a saved workflow: /workflow/:name with an optional action. */
const EXISTING_WORKFLOW_PATH = /^\/workflow\/([^/?#]+)(\/[^/?#]*)?$/;

let early: { id: string; workflow: Promise<StoredWorkflow | null> } | null = null;

/**
 * Opened on an editor route, the page asks for the node types, the saved workflow, the full
 * descriptions of the types it uses and their icons while its code still starts (settings, sign-in check,
 * rendering the frame) instead of one after the other once the editor is drawn. A failed early
 * call is forgotten: the editor then asks again as it always did (and reports the error then).
 */
export function prefetchOpening(path: string): void {
  preloadNodeTypes();
  const match = EXISTING_WORKFLOW_PATH.exec(path);
  if (!match?.[1]) return;
  const id = decodeURIComponent(match[1]);
  prefetchIconTable();
  const workflow = getWorkflow(id).then(
    (found) => {
      // The cards' font icons follow as soon as the descriptions name them.
      void preloadNodeTypeDetails(nodeTypeKey(found.nodes ?? [])).then((details) => (details ? preloadNodeIcons(details) : undefined));
      return found;
    },
    () => null,
  );
  early = { id, workflow };
}

/** The workflow fetched early for this id, once (later opens fetch afresh); null when none or failed. */
export async function takeEarlyWorkflow(id: string): Promise<StoredWorkflow | null> {
  if (early?.id !== id) return null;
  const { workflow } = early;
  early = null;
  return workflow;
}
