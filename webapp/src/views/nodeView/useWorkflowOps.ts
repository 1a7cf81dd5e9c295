import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { parseWorkflowData, workflowDataOf } from '@/core/workflow/clipboard';
import { downloadFileName } from '@/core/workflow/naming';
import type { EditorStore } from '@/core/editor/store';
import { createWorkflow, deleteWorkflow, updateWorkflow, workflowFromUrl, WORKFLOWS_KEY, type WorkflowBody } from '@/api/workflows';
import { showToast } from '@/components/toast';
import { confirmModal } from '@/components/confirm';
import { unsavedChangesModal } from './dialogs/unsavedChanges';
import { errorMessage } from './editorToasts';
import type { EditorActions } from './useEditorActions';
import { workflowBody } from './workflowData';

export interface WorkflowOps {
  /** Saves; a new workflow is created and (unless stay) opened at /workflow/:id/workflowSave. */
  save: (options?: { stay?: boolean }) => Promise<boolean>;
  /** Saves only the given fields of a saved workflow (rename, tags, settings, active). */
  patch: (body: WorkflowBody) => Promise<boolean>;
  /** Asks about unsaved changes; true when the caller may go on. */
  confirmLeave: () => Promise<boolean>;
  remove: () => Promise<void>;
  download: () => void;
  importFromUrl: (url: string) => Promise<boolean>;
  importFromFile: (file: File) => Promise<void>;
}

/** Saving, deleting, downloading and importing the open workflow. */
export function useWorkflowOps(store: EditorStore, actions: EditorActions): WorkflowOps {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();

  const saveFailed = useCallback(
    (error: unknown) => {
      showToast({ type: 'error', title: t('workflow.saveError'), message: errorMessage(error) });
    },
    [t],
  );

  const save = useCallback(
    async ({ stay = false }: { stay?: boolean } = {}) => {
      const state = store.getState();
      try {
        if (state.meta.id === null) {
          const saved = await createWorkflow({ ...workflowBody(state), active: false });
          store.markSaved({ id: saved.id, name: saved.name, active: saved.active });
          if (!stay) await navigate(`/workflow/${saved.id}/workflowSave`, { replace: false, state: { saved: true } });
        } else {
          const saved = await updateWorkflow(state.meta.id, workflowBody(state));
          store.markSaved({ name: saved.name, active: saved.active });
        }
        void mutate(WORKFLOWS_KEY);
        return true;
      } catch (error) {
        saveFailed(error);
        return false;
      }
    },
    [store, navigate, mutate, saveFailed],
  );

  const patch = useCallback(
    async (body: WorkflowBody) => {
      const id = store.getState().meta.id;
      if (id === null) return false;
      try {
        const saved = await updateWorkflow(id, body);
        const wasDirty = store.getState().dirty;
        store.markSaved({ name: saved.name, active: saved.active, tagIds: saved.tags.map((tag) => tag.id) });
        // A header save keeps unsaved canvas edits marked as unsaved.
        if (wasDirty) store.setMeta({}, true);
        void mutate(WORKFLOWS_KEY);
        return true;
      } catch (error) {
        saveFailed(error);
        return false;
      }
    },
    [store, mutate, saveFailed],
  );

  const confirmLeave = useCallback(async () => {
    if (!store.getState().dirty) return true;
    const choice = await unsavedChangesModal({
      title: t('workflow.unsaved.title'),
      message: t('workflow.unsaved.message'),
      save: t('workflow.unsaved.save'),
      discard: t('workflow.unsaved.discard'),
      cancel: t('workflow.unsaved.cancel'),
    });
    if (choice === 'cancel') return false;
    if (choice === 'save') return save({ stay: true });
    return true;
  }, [store, t, save]);

  const remove = useCallback(async () => {
    const { id, name } = store.getState().meta;
    if (id === null) return;
    const confirmed = await confirmModal({
      title: t('workflow.delete.title'),
      message: t('workflow.delete.message', { name }),
      confirm: t('workflow.delete.confirm'),
      cancel: t('workflow.delete.cancel'),
      danger: true,
    });
    if (!confirmed) return;
    try {
      await deleteWorkflow(id);
    } catch (error) {
      showToast({ type: 'error', title: t('workflow.delete.error'), message: errorMessage(error) });
      return;
    }
    void mutate(WORKFLOWS_KEY);
    showToast({ type: 'success', title: t('workflow.delete.done'), message: t('workflow.delete.doneMessage', { name }) });
    store.load({}, { nodes: [], connections: {} });
    await navigate('/workflow');
  }, [store, t, mutate, navigate]);

  const download = useCallback(() => {
    const state = store.getState();
    const data = { name: state.meta.name, ...workflowBody(state), tags: undefined, active: state.meta.active, id: state.meta.id ?? undefined };
    const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = downloadFileName(state.meta.name);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }, [store]);

  const importFromUrl = useCallback(
    async (url: string) => {
      try {
        const data = workflowDataOf(await workflowFromUrl(url));
        if (!data) throw new Error(t('workflow.import.notWorkflow'));
        actions.importData(data);
        return true;
      } catch (error) {
        showToast({ type: 'error', title: t('nodeView.importUrl.error'), message: errorMessage(error) });
        return false;
      }
    },
    [actions, t],
  );

  const importFromFile = useCallback(
    async (file: File) => {
      const data = parseWorkflowData(await file.text());
      if (!data) {
        showToast({ type: 'error', title: t('workflow.import.fileError'), message: t('workflow.import.fileErrorMessage') });
        return;
      }
      actions.importData(data);
    },
    [actions, t],
  );

  return useMemo(() => ({ save, patch, confirmLeave, remove, download, importFromUrl, importFromFile }), [save, patch, confirmLeave, remove, download, importFromUrl, importFromFile]);
}
