import { ActionIcon, Button, Center, Group, Loader, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteCredential, useCredentials, useCredentialTypes } from '@/api/credentials';
import { showErrorToast } from '@/components/errorToast';
import { closeModal, openModal, StackedModal } from '@/components/modalHost';
import { showToast } from '@/components/toast';
import { formatDateTime, timeAgo } from '@/core/timeAgo';
import { confirmDelete } from './confirmDelete';
import { CredentialIcon } from './CredentialIcon';
import classes from './credentials.module.css';

/** A time-ago label with the full date and time on hover. */
function TimeAgoCell({ date }: { date: string }) {
  return (
    <Table.Td>
      <Tooltip label={formatDateTime(date)} withinPortal zIndex={1000}>
        <Text size="sm" c="dimmed" span>
          {timeAgo(date)}
        </Text>
      </Tooltip>
    </Table.Td>
  );
}

/** The credentials list (spec 002 §2): name, type, created, updated, edit and delete; sorted by name. */
export function CredentialsListModal() {
  const { t } = useTranslation();
  const { credentials, isLoading, error } = useCredentials();
  const { types } = useCredentialTypes();

  useEffect(() => {
    if (error) showErrorToast(t('credentialsList.showError.loadCredentials.title'), error);
  }, [error, t]);

  const rows = useMemo(() => [...credentials].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })), [credentials]);

  const remove = async (id: string, name: string) => {
    if (!(await confirmDelete(name))) return;
    try {
      await deleteCredential(id);
      showToast({ type: 'success', message: t('credentialEdit.deleted', { name }) });
    } catch (failure) {
      showErrorToast(t('credentialEdit.showError.deleteCredential.title'), failure);
    }
  };

  return (
    <StackedModal
      opened
      onClose={() => closeModal('credentialsList', 'cancel')}
      size="80%"
      centered
      title={
        <Stack gap={2}>
          <Text fw={600} size="lg">
            {t('credentialsList.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('credentialsList.subtitle')}
          </Text>
        </Stack>
      }
      attributes={{ content: { 'data-test-id': 'credentials-list-dialog' } as Record<string, string> }}
    >
      <Stack gap="md">
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} />} onClick={() => openModal('selectCredential', {})} data-test-id="credentials-list-add">
            {t('credentialsList.addNew')}
          </Button>
        </Group>
        {isLoading ? (
          <Center h={120}>
            <Loader size="sm" />
          </Center>
        ) : rows.length === 0 ? (
          <Center h={120}>
            <Text c="dimmed" data-test-id="credentials-list-empty">
              {t('credentialsList.empty')}
            </Text>
          </Center>
        ) : (
          <ScrollArea.Autosize mah={450} type="auto" className={classes.listTable}>
            <Table highlightOnHover stickyHeader verticalSpacing="sm" data-test-id="credentials-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('credentialsList.name')}</Table.Th>
                  <Table.Th>{t('credentialsList.type')}</Table.Th>
                  <Table.Th>{t('credentialsList.created')}</Table.Th>
                  <Table.Th>{t('credentialsList.updated')}</Table.Th>
                  <Table.Th w={100}>{t('credentialsList.operations')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((credential) => {
                  const type = types.find((candidate) => candidate.name === credential.type);
                  const edit = () => openModal('editCredential', { mode: 'edit', activeId: credential.id });
                  return (
                    <Table.Tr key={credential.id} data-test-id="credentials-list-row" data-name={credential.name}>
                      <Table.Td>
                        <Text size="sm" fw={500} style={{ cursor: 'pointer' }} onClick={edit}>
                          {credential.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <CredentialIcon type={type} size={18} />
                          <Text size="sm">{type?.displayName ?? credential.type}</Text>
                        </Group>
                      </Table.Td>
                      <TimeAgoCell date={credential.createdAt} />
                      <TimeAgoCell date={credential.updatedAt} />
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <ActionIcon variant="subtle" color="gray" onClick={edit} aria-label={t('credentialsList.edit')} data-test-id="credentials-list-edit">
                            <IconPencil size={16} />
                          </ActionIcon>
                          <ActionIcon variant="subtle" color="red" onClick={() => void remove(credential.id, credential.name)} aria-label={t('credentialsList.delete')} data-test-id="credentials-list-delete">
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </StackedModal>
  );
}
