import { Button, Group, NumberInput, Select, Stack, Switch, Text } from '@mantine/core';
import { StackedModal } from '@/components/modalHost';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkTimeout, parseTimeoutInput, toParts, type TimeoutParts } from '@/core/editor/timeout';
import { executionOrderOf } from '@/core/workflow/executionOrder';
import type { BooleanSetting, ExecutionOrder, SaveDataSetting, WorkflowSettings } from '@/core/workflow/types';
import { useSettings } from '@/api/settings';
import { useTimezones, useWorkflowList } from '@/api/workflows';
import { showToast } from '@/components/toast';

const NO_WORKFLOW = '';

function boolValue(value: BooleanSetting | undefined): string {
  return value === undefined || value === 'DEFAULT' ? 'DEFAULT' : String(value);
}

/** The workflow settings dialog (spec 001 §3 workflow settings, §5 timeout rules). */
export function WorkflowSettingsModal({
  workflowId,
  workflowName,
  settings: initial,
  onSave,
  onClose,
}: {
  workflowId: string;
  workflowName: string;
  settings: WorkflowSettings;
  onSave: (settings: WorkflowSettings) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { settings: server } = useSettings();
  const { data: workflows = [] } = useWorkflowList();
  const { data: timezones = {} } = useTimezones(true);
  const [executionOrder, setExecutionOrder] = useState<ExecutionOrder>(executionOrderOf(initial));
  const [errorWorkflow, setErrorWorkflow] = useState(initial.errorWorkflow ?? NO_WORKFLOW);
  const [timezone, setTimezone] = useState(initial.timezone ?? 'DEFAULT');
  const [saveError, setSaveError] = useState<SaveDataSetting>(initial.saveDataErrorExecution ?? 'DEFAULT');
  const [saveSuccess, setSaveSuccess] = useState<SaveDataSetting>(initial.saveDataSuccessExecution ?? 'DEFAULT');
  const [saveManual, setSaveManual] = useState(boolValue(initial.saveManualExecutions));
  const [saveProgress, setSaveProgress] = useState(boolValue(initial.saveExecutionProgress));
  const initialTimeout = initial.executionTimeout ?? server.executionTimeout;
  const [timeoutOn, setTimeoutOn] = useState(initialTimeout > 0);
  const [timeout, setTimeoutParts] = useState<TimeoutParts>(toParts(Math.max(0, initialTimeout)));
  const [saving, setSaving] = useState(false);
  const maxTimeout = typeof initial.maxExecutionTimeout === 'number' ? initial.maxExecutionTimeout : server.maxExecutionTimeout;

  const saveLabel = (value: 'all' | 'none') => (value === 'all' ? t('settings.save') : t('settings.doNotSave'));
  const dataOptions = (fallback: 'all' | 'none') => [
    { value: 'DEFAULT', label: t('settings.default', { value: saveLabel(fallback) }) },
    { value: 'all', label: t('settings.save') },
    { value: 'none', label: t('settings.doNotSave') },
  ];
  const boolOptions = (fallback: boolean) => [
    { value: 'DEFAULT', label: t('settings.default', { value: fallback ? t('settings.save') : t('settings.doNotSave') }) },
    { value: 'true', label: t('settings.save') },
    { value: 'false', label: t('settings.doNotSave') },
  ];
  const toBool = (value: string): BooleanSetting => (value === 'DEFAULT' ? 'DEFAULT' : value === 'true');

  const submit = async () => {
    const check = checkTimeout(timeoutOn, timeout, maxTimeout);
    if (!check.ok) {
      const message = check.reason === 'zero' ? t('settings.timeout.zero') : t('settings.timeout.overMax', { ...check.max });
      showToast({ type: 'error', title: t('settings.timeout.errorTitle'), message });
      return;
    }
    const next: WorkflowSettings = {
      ...initial,
      executionOrder,
      timezone,
      saveDataErrorExecution: saveError,
      saveDataSuccessExecution: saveSuccess,
      saveManualExecutions: toBool(saveManual),
      saveExecutionProgress: toBool(saveProgress),
      executionTimeout: check.seconds,
    };
    if (errorWorkflow !== NO_WORKFLOW) next.errorWorkflow = errorWorkflow;
    else delete next.errorWorkflow;
    setSaving(true);
    const ok = await onSave(next);
    setSaving(false);
    if (ok) {
      showToast({ type: 'success', title: t('settings.saved'), message: t('settings.savedMessage') });
      onClose();
    }
  };

  const part = (key: keyof TimeoutParts, label: string, max?: number) => (
    <NumberInput
      label={label}
      min={0}
      max={max}
      // Typing is never clamped ("75" minutes stays 75, saved as 1 h 15 min); max only bounds the steppers.
      clampBehavior="none"
      allowDecimal={false}
      value={timeout[key]}
      onChange={(value) => setTimeoutParts((current) => ({ ...current, [key]: parseTimeoutInput(value) }))}
      data-test-id={`timeout-${key}`}
      w={110}
    />
  );

  return (
    <StackedModal opened onClose={onClose} title={t('settings.title', { name: workflowName, id: workflowId })} size="lg" attributes={{ content: { 'data-test-id': 'workflow-settings-modal' } }}>
      <Stack>
        <Select
          label={t('settings.executionOrder')}
          data={[
            { value: 'v0', label: t('settings.executionOrder.v0') },
            { value: 'v1', label: t('settings.executionOrder.v1') },
          ]}
          value={executionOrder}
          onChange={(value) => setExecutionOrder(value === 'v1' ? 'v1' : 'v0')}
          allowDeselect={false}
          data-test-id="settings-execution-order"
        />
        <Select
          label={t('settings.errorWorkflow')}
          data={[{ value: NO_WORKFLOW, label: t('settings.noWorkflow') }, ...workflows.filter((w) => w.id !== workflowId).map((w) => ({ value: w.id, label: w.name }))]}
          value={errorWorkflow}
          onChange={(value) => setErrorWorkflow(value ?? NO_WORKFLOW)}
          searchable
          data-test-id="settings-error-workflow"
        />
        <Select
          label={t('settings.timezone')}
          data={[{ value: 'DEFAULT', label: t('settings.default', { value: server.timezone }) }, ...Object.entries(timezones).map(([value, label]) => ({ value, label }))]}
          value={timezone}
          onChange={(value) => setTimezone(value ?? 'DEFAULT')}
          searchable
          data-test-id="settings-timezone"
        />
        <Select label={t('settings.saveDataErrorExecution')} data={dataOptions(server.saveDataErrorExecution)} value={saveError} onChange={(value) => setSaveError((value ?? 'DEFAULT') as SaveDataSetting)} data-test-id="settings-save-error" />
        <Select label={t('settings.saveDataSuccessExecution')} data={dataOptions(server.saveDataSuccessExecution)} value={saveSuccess} onChange={(value) => setSaveSuccess((value ?? 'DEFAULT') as SaveDataSetting)} data-test-id="settings-save-success" />
        <Select label={t('settings.saveManualExecutions')} data={boolOptions(server.saveManualExecutions)} value={saveManual} onChange={(value) => setSaveManual(value ?? 'DEFAULT')} data-test-id="settings-save-manual" />
        <Select label={t('settings.saveExecutionProgress')} data={boolOptions(false)} value={saveProgress} onChange={(value) => setSaveProgress(value ?? 'DEFAULT')} data-test-id="settings-save-progress" />
        <Switch label={t('settings.timeout.enable')} checked={timeoutOn} onChange={(event) => setTimeoutOn(event.currentTarget.checked)} data-test-id="settings-timeout-switch" />
        {timeoutOn ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('settings.timeout.after')}
            </Text>
            <Group>
              {part('hours', t('settings.timeout.hours'))}
              {part('minutes', t('settings.timeout.minutes'), 60)}
              {part('seconds', t('settings.timeout.seconds'), 60)}
            </Group>
          </Stack>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('settings.cancel')}
          </Button>
          <Button loading={saving} onClick={() => void submit()} data-test-id="settings-save-button">
            {t('settings.saveButton')}
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}
