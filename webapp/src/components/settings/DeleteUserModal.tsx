import { closeModal, StackedModal, type DeleteUserProps, type HostedModalProps } from '@/components/modalHost';
import { Button, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteUser } from '@/api/users';
import { DELETE_CONFIRMATION_TEXT, validateDeleteUser, type DeleteUserMode } from '@/core/accountValidation';
import { fullName, type User } from '@/core/user';
import { showToast } from '@/components/toast';
import { useSubmit } from '@/components/forms/useSubmit';

interface DeleteUserFormProps extends DeleteUserProps {
  onClose: () => void;
  onDone: () => void;
}

function displayName(user: User): string {
  return fullName(user) || (user.email ?? '');
}

function DeleteUserForm({ user, users, onClose, onDone, onDeleted }: DeleteUserFormProps) {
  const { t } = useTranslation();
  const isPending = user.isPending === true;
  const [mode, setMode] = useState<DeleteUserMode | null>(null);
  const [transferId, setTransferId] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState('');
  const valid = validateDeleteUser({ userId: user.id, isPending, mode, transferId, confirmation }) === null;
  const targets = users.filter((candidate) => candidate.id !== user.id && !candidate.isPending);

  const send = useSubmit(
    async () => {
      const transfer = !isPending && mode === 'transfer' && transferId ? transferId : undefined;
      await deleteUser(user.id, transfer);
      const target = transfer ? targets.find((candidate) => candidate.id === transfer) : undefined;
      showToast({
        type: 'success',
        title: t('settings.users.userDeleted'),
        message: target ? t('settings.users.transferredTo', { name: displayName(target) }) : t('settings.users.userDeletedMessage', { name: displayName(user) }),
      });
      onDeleted?.();
      onDone();
    },
    { onError: t('settings.users.deleteError') },
  );

  return (
    <Stack gap="md" data-test-id="delete-user-form">
      {isPending ? (
        <Text size="sm">{t('settings.users.deletePendingConfirm')}</Text>
      ) : (
        <>
          <Text size="sm">{t('settings.users.deleteWhatToDo')}</Text>
          <Radio.Group value={mode} onChange={(value) => setMode(value as DeleteUserMode)} name="deleteMode">
            <Stack gap="sm">
              <Radio value="transfer" label={t('settings.users.transferData')} data-test-id="delete-mode-transfer" />
              {mode === 'transfer' ? (
                <Select
                  ml={30}
                  label={t('settings.users.transferTo')}
                  placeholder={t('settings.users.selectUser')}
                  data={targets.map((candidate) => ({ value: candidate.id, label: `${displayName(candidate)} (${candidate.email ?? ''})` }))}
                  value={transferId}
                  onChange={setTransferId}
                  searchable
                  data-test-id="delete-transfer-select"
                />
              ) : null}
              <Radio value="delete" label={t('settings.users.deleteData')} data-test-id="delete-mode-delete" />
              {mode === 'delete' ? (
                <TextInput
                  ml={30}
                  label={t('settings.users.typeToConfirm', { text: DELETE_CONFIRMATION_TEXT })}
                  placeholder={DELETE_CONFIRMATION_TEXT}
                  value={confirmation}
                  onChange={(event) => setConfirmation(event.currentTarget.value)}
                  data-test-id="delete-data-input"
                />
              ) : null}
            </Stack>
          </Radio.Group>
        </>
      )}
      <Group justify="flex-end" mt="sm">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button color="red" disabled={!valid} loading={send.busy} onClick={() => {
            if (valid) void send.submit();
          }} data-test-id="delete-user-submit">
          {t('settings.users.delete')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Delete a user (spec 002 §4): a pending user needs only confirmation, others transfer or delete their data. */
export function DeleteUserModal(props: DeleteUserProps & HostedModalProps) {
  const { t } = useTranslation();
  const { user, opened } = props;
  const onClose = () => closeModal('deleteUser', 'cancel');
  return (
    <StackedModal
      opened={opened}
      onClose={onClose}
      title={t('settings.users.deleteTitle', { name: displayName(user) })}
      size={460}
      centered
      attributes={{ content: { 'data-test-id': 'delete-user-modal' } as Record<string, string> }}
    >
      <DeleteUserForm user={user} users={props.users} onDeleted={props.onDeleted} onClose={onClose} onDone={() => closeModal('deleteUser', 'confirmed')} />
    </StackedModal>
  );
}
