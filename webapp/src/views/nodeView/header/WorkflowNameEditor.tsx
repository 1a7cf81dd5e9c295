import { TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkWorkflowName, headerNameLimit, shortenName, WORKFLOW_NAME_MAX_LENGTH } from '@/core/workflow/naming';
import { hideToast, showToast } from '@/components/toast';
import classes from './header.module.css';

/** The id of the toast about an invalid name, closed once a valid one is entered. */
const NAME_ERROR_TOAST = 'workflow-name-error';

/** The inline workflow-name editor: Enter or blur submits, Escape cancels (spec 001 §4). */
export function WorkflowNameEditor({ name, readOnly, onSubmit }: { name: string; readOnly: boolean; onSubmit: (name: string) => Promise<boolean> | boolean }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const limit = headerNameLimit(useViewportSize().width || window.innerWidth);

  const submit = async () => {
    if (draft === null) return;
    const check = checkWorkflowName(draft);
    if (!check.ok) {
      const empty = check.reason === 'empty';
      showToast({
        id: NAME_ERROR_TOAST,
        type: 'error',
        title: empty ? t('workflow.name.errorTitle') : t('workflow.name.tooLongTitle'),
        message: empty ? t('workflow.name.empty') : t('workflow.name.tooLong', { max: WORKFLOW_NAME_MAX_LENGTH }),
      });
      return;
    }
    // A valid name ends the complaint about the last one.
    hideToast(NAME_ERROR_TOAST);
    if (check.name === name) {
      setDraft(null);
      return;
    }
    const ok = await onSubmit(check.name);
    if (ok !== false) setDraft(null);
  };

  if (draft !== null) {
    return (
      <TextInput
        className={classes.nameInput}
        data-test-id="workflow-name-input"
        aria-label={t('workflow.name.label')}
        value={draft}
        autoFocus
        onFocus={(event) => event.currentTarget.select()}
        onChange={(event) => setDraft(event.currentTarget.value)}
        onBlur={() => void submit()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') void submit();
          if (event.key === 'Escape') setDraft(null);
        }}
        size="sm"
      />
    );
  }
  return (
    <Tooltip label={name} disabled={[...name].length <= limit} withArrow>
      <UnstyledButton
        className={classes.name}
        data-test-id="workflow-name-input"
        data-name={name}
        aria-label={t('workflow.name.edit', { name })}
        onClick={() => {
          if (!readOnly) setDraft(name);
        }}
      >
        {shortenName(name, limit)}
      </UnstyledButton>
    </Tooltip>
  );
}
