import { TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useViewportSize } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkWorkflowName, headerNameLimit, shortenName, WORKFLOW_NAME_MAX_LENGTH } from '@/core/workflow/naming';
import { showToast } from '@/components/toast';
import classes from './header.module.css';

/** The inline workflow-name editor: Enter or blur submits, Escape cancels (spec 001 §4). */
export function WorkflowNameEditor({ name, readOnly, onSubmit }: { name: string; readOnly: boolean; onSubmit: (name: string) => Promise<boolean> | boolean }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const limit = headerNameLimit(useViewportSize().width || window.innerWidth);

  const submit = async () => {
    if (draft === null) return;
    const check = checkWorkflowName(draft);
    if (!check.ok) {
      showToast({ type: 'error', title: t('workflow.name.errorTitle'), message: check.reason === 'empty' ? t('workflow.name.empty') : t('workflow.name.tooLong', { max: WORKFLOW_NAME_MAX_LENGTH }) });
      return;
    }
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
        maxLength={WORKFLOW_NAME_MAX_LENGTH}
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
