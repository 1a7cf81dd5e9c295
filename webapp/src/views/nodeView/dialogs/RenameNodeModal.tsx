import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** F2 rename (spec 001 §5): trimmed, empty changes nothing; Enter confirms, Esc cancels. */
export function RenameNodeModal({ name, onRename, onClose }: { name: string; onRename: (name: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(name);
  return (
    <Modal opened onClose={onClose} title={t('renameNode.title')} centered size={420} attributes={{ content: { 'data-test-id': 'rename-node-modal' } }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (value.trim() !== '') onRename(value);
          onClose();
        }}
      >
        <Stack>
          <TextInput name="name" label={t('renameNode.label')} value={value} data-autofocus onFocus={(event) => event.currentTarget.select()} onChange={(event) => setValue(event.currentTarget.value)} data-test-id="node-rename-input" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('renameNode.cancel')}
            </Button>
            <Button type="submit" data-test-id="node-rename-button">
              {t('renameNode.rename')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
