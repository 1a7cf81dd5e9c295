import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { applyPushMessage, IDLE_EXECUTION, isForOtherExecution, PUSH_RETRIES, PUSH_RETRY_DELAY, runOutcome, runStarted } from '@/core/editor/execution';
import { planPartialRun } from '@/core/editor/partialRun';
import type { EditorStore } from '@/core/editor/store';
import { workflowIssues } from '@/core/workflow/nodeIssues';
import type { NodeTypeIndex } from '@/core/workflow/nodeTypes';
import { issueList } from './issueText';
import type { PushMessage } from '@/core/push/messages';
import { useKnownCredentials } from '@/api/credentials';
import { getPushClient, usePushMessages } from '@/api/push';
import { getExecution, stopExecution } from '@/api/executions';
import { deleteTestWebhook, runWorkflow } from '@/api/workflows';
import { showToast } from '@/components/toast';
import { errorMessage } from './editorToasts';
import { workflowBody } from './workflowData';

/** Ends a wait for a test webhook call, on the server and in the editor. Failures are only logged. */
export async function stopWaitingForWebhook(store: EditorStore): Promise<void> {
  const { meta, execution } = store.getState();
  if (execution.status !== 'waitingForWebhook') return;
  store.updateExecution(() => IDLE_EXECUTION);
  if (meta.id === null) return;
  try {
    await deleteTestWebhook(meta.id);
  } catch (error) {
    console.warn('could not remove the test webhook', error);
  }
}

export interface RunControls {
  run: (destinationNode?: string) => Promise<void>;
  stop: () => Promise<void>;
  clear: () => void;
}

/** Runs the workflow from the canvas and follows its progress on the push channel. */
export function useRunWorkflow(store: EditorStore, enabled: boolean, index: NodeTypeIndex, details: NodeTypeIndex | null): RunControls {
  const { t } = useTranslation();
  const credentials = useKnownCredentials();

  const onPush = useCallback(
    function handle(message: PushMessage, retriesLeft = PUSH_RETRIES) {
      if (!enabled) return;
      const before = store.getState().execution;
      if (isForOtherExecution(before, message)) {
        if (retriesLeft > 0) window.setTimeout(() => handle(message, retriesLeft - 1), PUSH_RETRY_DELAY);
        return;
      }
      store.updateExecution((execution) => applyPushMessage(execution, message));
      if (message.type !== 'executionFinished' || before.status === 'idle') return;
      const outcome = runOutcome(message.data.data);
      switch (outcome.kind) {
        case 'success':
          showToast({ type: 'success', title: t('execution.success') , message: t('execution.successMessage') });
          break;
        case 'waiting':
          showToast({ type: 'info', title: t('execution.waiting'), message: t('execution.waitingMessage'), autoClose: false });
          break;
        case 'nodeError':
          showToast({ type: 'error', title: t('execution.problem'), message: t('execution.nodeError', { node: outcome.node, message: outcome.message }) });
          break;
        case 'failed':
          showToast({
            type: 'error',
            title: outcome.message ? t('execution.failed') : t('execution.problem'),
            message: outcome.message ?? t('execution.genericError'),
            autoClose: false,
          });
          break;
      }
    },
    [enabled, store, t],
  );
  usePushMessages(useCallback((message: PushMessage) => onPush(message), [onPush]));
  // Leaving the editor ends a wait for a test webhook call.
  useEffect(() => () => void stopWaitingForWebhook(store), [store]);

  const run = useCallback(
    async (destinationNode?: string) => {
      if (!getPushClient().isActive) {
        showToast({ type: 'error', title: t('execution.noConnection.title'), message: t('execution.noConnection.message') });
        return;
      }
      const state = store.getState();
      if (state.execution.status !== 'idle') return;
      // Node issues block a run (spec 001 §8), each listed.
      const issues = workflowIssues(state.graph.nodes, index, details, credentials);
      if (issues.size > 0) {
        showToast({ type: 'error', title: t('execution.issues.title'), message: <span style={{ whiteSpace: 'pre-line' }}>{t('execution.issues.message', { issues: issueList(issues) })}</span> });
        return;
      }
      // A run up to a node reuses the data the editor has for the nodes before it.
      const plan = destinationNode ? planPartialRun(state.graph, state.execution.runData, destinationNode) : { runData: undefined, startNodes: [] };
      // Push messages can arrive before the answer; the run is followed from this moment on.
      store.updateExecution((execution) => runStarted(execution, null, false, plan.runData));
      try {
        const body = { ...workflowBody(state), id: state.meta.id ?? undefined, active: state.meta.active };
        const answer = await runWorkflow({ workflowData: body, destinationNode, startNodes: plan.startNodes, runData: plan.runData });
        store.updateExecution((execution) => {
          if (answer.waitingForWebhook) return runStarted(execution, null, true, plan.runData);
          if (execution.status === 'idle') return execution;
          return { ...execution, executionId: execution.executionId ?? answer.executionId ?? null };
        });
      } catch (error) {
        store.updateExecution(() => IDLE_EXECUTION);
        showToast({ type: 'error', title: t('execution.problem'), message: t('execution.genericErrorWith', { message: errorMessage(error) }) });
      }
    },
    [store, t, index, details, credentials],
  );

  const stop = useCallback(async () => {
    const { executionId, status } = store.getState().execution;
    if (status === 'waitingForWebhook') {
      await stopWaitingForWebhook(store);
      showToast({ type: 'success', title: t('execution.webhookWaitStopped'), message: t('execution.webhookWaitStoppedMessage') });
      return;
    }
    if (executionId === null) {
      store.updateExecution(() => IDLE_EXECUTION);
      return;
    }
    store.updateExecution((execution) => ({ ...execution, status: 'stopping' }));
    try {
      await stopExecution(executionId);
      showToast({ type: 'success', title: t('execution.stopped'), message: t('execution.stoppedMessage', { id: executionId }) });
    } catch (error) {
      // The run may have ended on its own meanwhile: then its result is taken as it is.
      const finished = await getExecution(executionId).catch(() => null);
      if (finished?.stoppedAt) {
        store.updateExecution(() => ({
          ...IDLE_EXECUTION,
          executionId,
          runData: finished.data?.resultData?.runData ?? store.getState().execution.runData,
          result: finished.data ? { ...finished, data: finished.data } : null,
        }));
        showToast({ type: 'success', title: t('execution.stopFinished'), message: t('execution.stopFinishedMessage') });
        return;
      }
      store.updateExecution((execution) => (execution.status === 'stopping' ? { ...execution, status: 'running' } : execution));
      showToast({ type: 'error', title: t('execution.stopError'), message: errorMessage(error) });
    }
  }, [store, t]);

  const clear = useCallback(() => store.updateExecution(() => IDLE_EXECUTION), [store]);

  return { run, stop, clear };
}
