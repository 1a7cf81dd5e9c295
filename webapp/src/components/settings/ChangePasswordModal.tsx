import { closeModal, StackedModal, type HostedModalProps } from '@/components/modalHost';
import { dialogSizeProps } from '@/components/modalHost/modalSize';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { changeOwnPassword } from '@/api/users';
import { CHANGE_PASSWORD_RULES, type ChangePasswordField } from '@/core/accountValidation';
import { usePasswordRequirements } from '@/components/forms/passwordRequirements';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { showToast } from '@/components/toast';

const INITIAL: Record<ChangePasswordField, string> = { currentPassword: '', password: '', password2: '' };

function ChangePasswordForm({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const requirements = usePasswordRequirements();
  const form = useAccountForm({ initialValues: INITIAL, rules: CHANGE_PASSWORD_RULES });

  const send = useSubmit(
    async () => {
      await changeOwnPassword(form.values.currentPassword, form.values.password);
      showToast({ type: 'success', title: t('auth.changePassword.passwordUpdated'), message: t('auth.changePassword.passwordUpdatedMessage') });
      onDone();
    },
    { onError: t('auth.changePassword.error') },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit();
  };

  return (
    <form onSubmit={onSubmit} noValidate data-test-id="change-password-modal-form">
      <Stack gap="md">
        <PasswordInput label={t('auth.currentPassword')} autoComplete="current-password" data-autofocus {...form.field('currentPassword')} />
        <PasswordInput label={t('auth.newPassword')} autoComplete="new-password" description={requirements} inputWrapperOrder={['label', 'input', 'description', 'error']} {...form.field('password')} />
        <PasswordInput label={t('auth.repeatPassword')} autoComplete="new-password" {...form.field('password2')} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          {/* Pressing the button must not blur the field first: the error shown on blur would move the button away before the click lands. */}
          <Button type="submit" loading={send.busy} onMouseDown={(event) => event.preventDefault()} data-test-id="change-password-modal-submit">
            {t('auth.changePassword.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Change own password (spec 002 §2, §5): current password, new password and its repetition. */
export function ChangePasswordModal({ opened }: HostedModalProps) {
  const { t } = useTranslation();
  const onClose = () => closeModal('changePassword', 'cancel');
  return (
    <StackedModal opened={opened} onClose={onClose} title={t('auth.changePassword.title')} {...dialogSizeProps('changePassword')} centered attributes={{ content: { 'data-test-id': 'change-password-modal' } as Record<string, string> }}>
      {opened ? <ChangePasswordForm onClose={onClose} onDone={() => closeModal('changePassword', 'confirmed')} /> : null}
    </StackedModal>
  );
}
