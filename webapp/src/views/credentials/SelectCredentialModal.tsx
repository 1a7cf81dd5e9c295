import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCredentialTypes } from '@/api/credentials';
import { closeModal, openModal, StackedModal, type ModalPropsByName } from '@/components/modalHost';
import { CredentialIcon } from './CredentialIcon';
import classes from './credentials.module.css';

/** Choosing the type of a new credential (spec 002 §2): a searchable list; Continue waits for a choice. */
export function SelectCredentialModal({ workflowNodeTypes, tester }: ModalPropsByName['selectCredential']) {
  const { t } = useTranslation();
  const { types, isLoading } = useCredentialTypes();
  const [chosen, setChosen] = useState<string | null>(null);
  const data = [...types].sort((a, b) => a.displayName.localeCompare(b.displayName)).map((type) => ({ value: type.name, label: type.displayName }));

  const proceed = () => {
    if (!chosen) return;
    closeModal('selectCredential', 'confirmed');
    openModal('editCredential', { mode: 'new', activeId: chosen, workflowNodeTypes, tester });
  };

  return (
    <StackedModal
      opened
      onClose={() => closeModal('selectCredential', 'cancel')}
      size="50%"
      centered
      styles={{ content: { maxWidth: 460, minHeight: 250 } }}
      title={
        <Text fw={600} size="lg">
          {t('credentialSelect.title')}
        </Text>
      }
      attributes={{ content: { 'data-test-id': 'select-credential-dialog' } as Record<string, string> }}
    >
      <Stack gap="lg">
        <Select
          label={t('credentialSelect.label')}
          placeholder={isLoading ? t('credentialSelect.loading') : t('credentialSelect.placeholder')}
          data={data}
          value={chosen}
          onChange={setChosen}
          searchable
          autoFocus
          nothingFoundMessage={t('credentialSelect.nothingFound')}
          comboboxProps={{ withinPortal: true, zIndex: 1000 }}
          maxDropdownHeight={260}
          renderOption={({ option }) => (
            <div className={classes.typeOption}>
              <CredentialIcon type={types.find((type) => type.name === option.value)} size={18} />
              <span>{option.label}</span>
            </div>
          )}
          leftSection={chosen ? <CredentialIcon type={types.find((type) => type.name === chosen)} size={16} /> : undefined}
          data-test-id="credential-type-select"
        />
        <Group justify="flex-end">
          <Button disabled={!chosen} onClick={proceed} data-test-id="select-credential-continue">
            {t('credentialSelect.continue')}
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}
