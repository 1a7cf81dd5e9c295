import { Button, Group, Modal, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LazyCodeEditor, type CodeEditorMode } from '@/components/codeEditor';
import type { CompletionData } from '@/core/codeEditor/completions';

/** A large editor for long text, or for code and JSON (CodeMirror); edits apply as they are typed. */
export function EditDialog({
  opened,
  title,
  value,
  mode,
  completions,
  readOnly,
  onChange,
  onClose,
}: {
  opened: boolean;
  title: string;
  value: string;
  /** The code editor's mode; plain text without one. */
  mode?: CodeEditorMode;
  completions?: () => CompletionData;
  readOnly: boolean;
  onChange: (value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={`${t('parameters.edit')} ${title}`} size="xl" centered attributes={{ content: { 'data-test-id': mode ? 'code-edit-dialog' : 'text-edit-dialog' } }}>
      {mode ? (
        <LazyCodeEditor value={value} onChange={onChange} mode={mode} readOnly={readOnly} completions={completions} autoFocus minHeight="420px" maxHeight="65vh" label={title} testId="edit-dialog-code" />
      ) : (
        <Textarea value={value} onChange={(event) => onChange(event.currentTarget.value)} readOnly={readOnly} autosize minRows={12} maxRows={30} data-autofocus data-test-id="edit-dialog-input" />
      )}
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose} data-test-id="edit-dialog-close">
          {t('parameters.close')}
        </Button>
      </Group>
    </Modal>
  );
}
