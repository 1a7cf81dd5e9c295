import { Button, Group, Stack, TextInput } from '@mantine/core';
import { StackedModal } from '@/components/modalHost';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { checkWorkflowName, copyName, WORKFLOW_NAME_MAX_LENGTH } from '@/core/workflow/naming';
import { createWorkflow, WORKFLOWS_KEY, type WorkflowBody } from '@/api/workflows';
import { currentAppPaths } from '@/core/basePath';
import { useSubmit } from '@/components/forms/useSubmit';
import { hideToast, showToast } from '@/components/toast';
import { errorMessage } from '@/views/nodeView/editorToasts';

const DUPLICATE_ERROR_TOAST = 'duplicate-name-error';

/** Duplicate dialog (spec 002): saves a copy under a new name and opens it in a new window. */
export function DuplicateWorkflowModal({ name, body, onClose }: { name: string; body: () => WorkflowBody; onClose: () => void }) {
  const { t } = useTranslation();
  const { mutate } = useSWRConfig();
  const [value, setValue] = useState(copyName(name));
  const [error, setError] = useState<string | null>(null);
  const save = useSubmit(
    async (copyAs: string) => {
      const copy = await createWorkflow({ ...body(), name: copyAs, active: false });
      void mutate(WORKFLOWS_KEY);
      window.open(`${currentAppPaths().basePath}workflow/${copy.id}`, '_blank');
      onClose();
    },
    { onError: (err) => showToast({ type: 'error', title: t('workflow.saveError'), message: errorMessage(err) }), idleAfterSuccess: true },
  );

  const submit = () => {
    const check = checkWorkflowName(value);
    if (!check.ok) {
      const empty = check.reason === 'empty';
      const message = empty ? t('duplicate.empty') : t('duplicate.tooLong', { max: WORKFLOW_NAME_MAX_LENGTH, length: [...value.trim()].length });
      setError(message);
      showToast({ id: DUPLICATE_ERROR_TOAST, type: 'error', title: empty ? t('duplicate.errorTitle') : t('duplicate.tooLongTitle'), message });
      return;
    }
    hideToast(DUPLICATE_ERROR_TOAST);
    void save.submit(check.name);
  };

  return (
    <StackedModal opened onClose={onClose} title={t('duplicate.title')} size={420} centered attributes={{ content: { 'data-test-id': 'duplicate-modal' } }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput
            name="name"
            label={t('duplicate.name')}
            value={value}
            error={error}
            autoFocus
            onChange={(event) => {
              setValue(event.currentTarget.value);
              setError(null);
            }}
            data-test-id="duplicate-name-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('duplicate.cancel')}
            </Button>
            <Button type="submit" loading={save.busy} data-test-id="duplicate-save-button">
              {t('duplicate.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </StackedModal>
  );
}
