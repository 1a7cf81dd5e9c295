import { showToast } from '@/components/toast';
import { i18n } from '@/i18n';
import type { MaxNodesError, SkippedNodes } from '@/core/workflow/edits';

/** Blocked edit on a read-only view (spec 001 §8): persistent error with title and message. */
export function showReadOnlyError(): void {
  showToast({ id: 'read-only', type: 'error', title: i18n.t('nodeView.readOnly.title'), message: i18n.t('nodeView.readOnly.message'), autoClose: false });
}

export function showMaxNodesError(error: MaxNodesError): void {
  showToast({
    type: 'error',
    title: i18n.t('nodeView.maxNodes.title', { displayName: error.displayName }),
    message: i18n.t('nodeView.maxNodes.message', { count: error.count }),
    autoClose: false,
  });
}

/** An import or paste that left nodes out over their type's maximum count; the rest was added. */
export function showSkippedNodes(skipped: SkippedNodes): void {
  showToast({
    type: 'warning',
    title: i18n.t('nodeView.maxNodes.title', { displayName: skipped.displayName }),
    message: i18n.t('nodeView.maxNodes.skipped', { count: skipped.count, nodes: skipped.nodes.join(', ') }),
    autoClose: false,
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
