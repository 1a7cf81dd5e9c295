import { closeModal, StackedModal, type HostedModalProps, type InviteUserProps } from '@/components/modalHost';
import { dialogSizeProps } from '@/components/modalHost/modalSize';
import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteUsers } from '@/api/users';
import { inviteeEmails, parseInviteEmails, validateInviteEmails, type FormRules } from '@/core/accountValidation';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { showToast } from '@/components/toast';

type InviteField = 'emails' | 'role';
const INITIAL: Record<InviteField, string> = { emails: '', role: 'member' };
const RULES: FormRules<InviteField> = {
  emails: validateInviteEmails,
  role: (value) => (value === '' ? { key: 'validation.required' } : null),
};

function InviteForm({ onClose, onDone, onInvited }: { onClose: () => void; onDone: () => void; onInvited?: () => void }) {
  const { t } = useTranslation();
  const form = useAccountForm({ initialValues: INITIAL, rules: RULES });
  const count = parseInviteEmails(form.values.emails).length;

  const send = useSubmit(
    async () => {
      const results = await inviteUsers(inviteeEmails(form.values.emails));
      const sent = results.filter((result) => !result.user.error).map((result) => result.user.email);
      const failed = results.filter((result) => result.user.error);
      if (sent.length > 0) {
        showToast({ type: 'success', title: t('settings.users.usersInvited'), message: t('settings.users.emailInvitesSent', { emails: sent.join(', ') }) });
      }
      if (failed.length > 0) {
        showToast({
          type: 'error',
          title: t('settings.users.usersEmailedError'),
          message: failed.map((result) => t('settings.users.emailInviteFailed', { email: result.user.email, error: result.user.error })).join('\n'),
        });
      }
      onInvited?.();
      onDone();
    },
    { onError: t('settings.users.inviteError') },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit();
  };

  const emails = form.field('emails');
  return (
    <form onSubmit={onSubmit} noValidate data-test-id="invite-users-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('settings.users.inviteInfo')}
        </Text>
        <TextInput label={t('settings.users.newUserEmails')} placeholder={t('settings.users.emailsPlaceholder')} data-autofocus {...emails} />
        <Select
          label={t('settings.users.role')}
          name="role"
          data={[{ value: 'member', label: t('settings.users.roles.member') }]}
          value={form.values.role}
          onChange={(value) => form.setValue('role', value ?? '')}
          allowDeselect={false}
          withAsterisk
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={send.busy} disabled={count === 0} data-test-id="invite-users-submit">
            {count > 1 ? t('settings.users.inviteXUsers', { count }) : t('settings.users.inviteUser')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Invite users (spec 002 §2, §5): comma-separated addresses, member role only. */
export function InviteUsersModal({ opened, onInvited }: HostedModalProps & InviteUserProps) {
  const { t } = useTranslation();
  const onClose = () => closeModal('inviteUser', 'cancel');
  return (
    <StackedModal opened={opened} onClose={onClose} title={t('settings.users.inviteNewUsers')} {...dialogSizeProps('inviteUser')} centered attributes={{ content: { 'data-test-id': 'invite-users-modal' } as Record<string, string> }}>
      {opened ? <InviteForm onClose={onClose} onDone={() => closeModal('inviteUser', 'confirmed')} onInvited={onInvited} /> : null}
    </StackedModal>
  );
}
