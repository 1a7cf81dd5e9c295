import { Button, Group, Modal, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './parameters.module.css';

/** A large editor for long text, code or JSON; edits apply as they are typed. */
export function EditDialog({
  opened,
  title,
  value,
  code,
  readOnly,
  onChange,
  onClose,
}: {
  opened: boolean;
  title: string;
  value: string;
  code: boolean;
  readOnly: boolean;
  onChange: (value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={`${t('parameters.edit')} ${title}`} size="xl" centered attributes={{ content: { 'data-test-id': code ? 'code-edit-dialog' : 'text-edit-dialog' } }}>
      <Textarea
        className={code ? classes.monospace : undefined}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        readOnly={readOnly}
        autosize
        minRows={code ? 18 : 12}
        maxRows={30}
        spellCheck={!code}
        data-autofocus
        data-test-id="edit-dialog-input"
      />
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose} data-test-id="edit-dialog-close">
          {t('parameters.close')}
        </Button>
      </Group>
    </Modal>
  );
}
