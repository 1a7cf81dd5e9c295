import { Anchor, Badge, Button, Center, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCircleCheckFilled, IconCircleXFilled, IconClockHour4, IconDeviceFloppy, IconLock } from '@tabler/icons-react';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getPushClient } from '@/api/push';
import { useSettings } from '@/api/settings';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import type { WorkflowOps } from '@/views/nodeView/useWorkflowOps';
import { ActivationSwitch } from './ActivationSwitch';
import { TagsEditor } from './TagsEditor';
import { WorkflowNameEditor } from './WorkflowNameEditor';
import classes from './header.module.css';

export interface ExecutionInfo {
  id: string;
  status: 'success' | 'error' | 'waiting' | 'running';
}

/** The status icon next to the execution id, titled with what it means. */
function ExecutionStateIcon({ status }: { status: ExecutionInfo['status'] }) {
  const { t } = useTranslation();
  const icon =
    status === 'success' ? (
      <IconCircleCheckFilled size={18} color="var(--mantine-color-teal-6)" />
    ) : status === 'error' ? (
      <IconCircleXFilled size={18} color="var(--mantine-color-red-6)" />
    ) : status === 'running' ? (
      <Loader size={14} />
    ) : (
      <IconClockHour4 size={18} color="var(--mantine-color-yellow-7)" />
    );
  return (
    <Tooltip label={t(`executionView.status.${status}`)} withArrow>
      <Center aria-label={t(`executionView.status.${status}`)} data-test-id="execution-status-icon" data-status={status}>
        {icon}
      </Center>
    </Tooltip>
  );
}

/** The editor header: name, tags, save and activation; on an execution page its id and status. */
export function WorkflowHeader({ ops, execution }: { ops: WorkflowOps; execution?: ExecutionInfo }) {
  const { t } = useTranslation();
  const { store, readOnly, mode } = useEditor();
  const { settings } = useSettings();
  const meta = useEditorState((s) => s.meta);
  const dirty = useEditorState((s) => s.dirty);
  const [saving, setSaving] = useState(false);
  const push = getPushClient();
  const pushLost = useSyncExternalStore(
    (onChange) => push.onStatusChange(onChange),
    () => push.status === 'lost',
  );

  if (mode === 'execution' && execution) {
    return (
      <header className={classes.header} data-test-id="workflow-header" data-push-lost={pushLost || undefined}>
        <Group gap="sm" wrap="nowrap" className={classes.left}>
          <Group gap={6} wrap="nowrap" data-test-id="execution-id">
            <Text fw={600}>{t('execution.header.id', { id: execution.id })}</Text>
            <ExecutionStateIcon status={execution.status} />
          </Group>
          <Text c="dimmed">{t('executionView.of')}</Text>
          {meta.id !== null ? (
            <Anchor component={Link} to={`/workflow/${encodeURIComponent(meta.id)}`} fw={600} c="var(--mantine-color-text)" title={t('executionView.openWorkflow')} data-test-id="execution-workflow-name">
              {meta.name}
            </Anchor>
          ) : (
            <Text fw={600} data-test-id="execution-workflow-name">
              {meta.name}
            </Text>
          )}
        </Group>
        <Tooltip label={t('executionView.readOnlyHint')} withArrow multiline w={300}>
          <Badge color="gray" variant="light" leftSection={<IconLock size={12} />} tt="none" data-test-id="read-only-notice">
            {t('execution.header.readOnly')}
          </Badge>
        </Tooltip>
      </header>
    );
  }

  const rename = async (name: string) => {
    if (meta.id === null) {
      store.setMeta({ name }, true);
      return true;
    }
    return ops.patch({ name });
  };

  const save = async () => {
    setSaving(true);
    try {
      await ops.save();
    } finally {
      setSaving(false);
    }
  };

  const saved = !dirty && meta.id !== null;
  return (
    // The frame shows its 'connection lost' badge at the top right; the header makes room for it.
    <header className={classes.header} data-test-id="workflow-header" data-push-lost={pushLost || undefined}>
      <Group gap="md" wrap="nowrap" className={classes.left}>
        <WorkflowNameEditor name={meta.name} readOnly={readOnly} onSubmit={rename} />
        {!settings.workflowTagsDisabled ? (
          <TagsEditor
            tagIds={meta.tagIds}
            readOnly={readOnly}
            onChange={(ids) => {
              if (meta.id === null) store.setMeta({ tagIds: ids }, true);
              else void ops.patch({ tags: ids });
            }}
          />
        ) : null}
      </Group>
      <Group gap="md" wrap="nowrap">
        <ActivationSwitch ops={ops} />
        {saved ? (
          <Button variant="subtle" color="gray" leftSection={<IconCheck size={16} />} data-test-id="workflow-save-button" data-state="saved" disabled>
            {t('workflow.save.saved')}
          </Button>
        ) : (
          <Button leftSection={<IconDeviceFloppy size={16} />} loading={saving} onClick={() => void save()} data-test-id="workflow-save-button" data-state="unsaved" disabled={readOnly}>
            {saving ? t('workflow.save.saving') : t('workflow.save.save')}
          </Button>
        )}
      </Group>
    </header>
  );
}
