import { ActionIcon, Button, Checkbox, Group, Loader, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { workflowIssues } from '@/core/workflow/nodeIssues';
import { canActivateWorkflow } from '@/core/workflow/nodeTypes';
import { useKnownCredentials } from '@/api/credentials';
import { updateWorkflow, useActivationError } from '@/api/workflows';
import { closeModal, openModal, StackedModal, type HostedModalProps } from '@/components/modalHost';
import { showToast } from '@/components/toast';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import { errorMessage } from '@/views/nodeView/editorToasts';
import { issueList } from '@/views/nodeView/issueText';
import type { WorkflowOps } from '@/views/nodeView/useWorkflowOps';

/** Storage key of the activation notice's "don't show again" flag. */
export const HIDE_ACTIVATION_ALERT_KEY = 'N8N_HIDE_ACTIVATION_ALERT';

/** The activation toggle with its rules (spec 001 §4). */
export function ActivationSwitch({ ops }: { ops: WorkflowOps }) {
  const { t } = useTranslation();
  const { store, index, details, readOnly } = useEditor();
  const active = useEditorState((s) => s.meta.active);
  const id = useEditorState((s) => s.meta.id);
  const hasTrigger = useEditorState((s) =>
    s.graph.nodes.some((node) => {
      const type = index.forNode(node);
      return !node.disabled && type !== undefined && canActivateWorkflow(type);
    }),
  );
  const credentials = useKnownCredentials();
  const [busy, setBusy] = useState(false);
  const { data: activationError, mutate } = useActivationError(id, active);
  const notRunning = active && activationError?.error !== undefined;

  const toggle = async (next: boolean) => {
    if (next) {
      const issues = workflowIssues(store.getState().graph.nodes, index, details, credentials);
      if (issues.size > 0) {
        showToast({ type: 'error', title: t('activation.problemTitle'), message: <span style={{ whiteSpace: 'pre-line' }}>{t('activation.issues', { issues: issueList(issues) })}</span> });
        return;
      }
    }
    setBusy(true);
    try {
      // A new workflow is saved first (spec 001 §4).
      if (store.getState().meta.id === null && !(await ops.save())) return;
      const workflowId = store.getState().meta.id;
      if (workflowId === null) return;
      const saved = await updateWorkflow(workflowId, { active: next });
      store.markSaved({ active: saved.active });
      void mutate();
      if (next && window.localStorage.getItem(HIDE_ACTIVATION_ALERT_KEY) !== 'true') openModal('activation', {});
    } catch (error) {
      const action = next ? t('activation.activated') : t('activation.deactivated');
      showToast({ type: 'error', title: t('activation.problemTitle'), message: t('activation.failed', { action, message: errorMessage(error) }) });
    } finally {
      setBusy(false);
    }
  };

  const showActivationError = () => {
    showToast({ type: 'warning', title: t('activation.notRunningTitle'), message: activationError?.error?.message ?? t('activation.unknownError') });
  };

  const disabled = readOnly || busy || (!active && !hasTrigger);
  return (
    <Group gap={6} wrap="nowrap">
      {notRunning ? (
        <Tooltip label={t('activation.notRunning')} withArrow multiline w={240}>
          <ActionIcon variant="subtle" color="orange" aria-label={t('activation.notRunning')} data-test-id="workflow-activation-warning" onClick={showActivationError}>
            <IconAlertTriangle size={18} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      <Tooltip label={t('activation.noTrigger')} disabled={active || hasTrigger} withArrow multiline w={240}>
        <Group gap={6} wrap="nowrap">
          <Text size="sm" c={active ? 'teal' : 'dimmed'} fw={500}>
            {active ? t('activation.active') : t('activation.inactive')}
          </Text>
          <Switch
            checked={active}
            disabled={disabled}
            color="teal"
            aria-label={active ? t('activation.deactivate') : t('activation.activate')}
            data-test-id="workflow-activate-switch"
            onChange={(event) => void toggle(event.currentTarget.checked)}
          />
          {busy ? <Loader size="xs" /> : null}
        </Group>
      </Tooltip>
    </Group>
  );
}

/** The notice after a workflow is activated (spec 002 §2 "activation"), a named modal of the host. */
export function ActivationModal({ opened }: HostedModalProps) {
  const { t } = useTranslation();
  const [hide, setHide] = useState(false);
  const close = () => {
    if (hide) window.localStorage.setItem(HIDE_ACTIVATION_ALERT_KEY, 'true');
    closeModal('activation', 'close');
  };
  return (
    <StackedModal opened={opened} onClose={close} title={t('activation.modal.title')} centered attributes={{ content: { 'data-test-id': 'activation-modal' } }}>
      <Stack>
        <Text size="sm">{t('activation.modal.message')}</Text>
        <Text size="sm" c="dimmed">
          {t('activation.modal.executions')}
        </Text>
        <Group justify="space-between">
          <Checkbox label={t('activation.modal.dontShowAgain')} checked={hide} onChange={(event) => setHide(event.currentTarget.checked)} />
          <Button onClick={close}>{t('activation.modal.gotIt')}</Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}
