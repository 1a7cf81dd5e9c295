import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ResponseError } from '@/api/fetcher';
import { useSettings } from '@/api/settings';
import { sendPasswordResetMail } from '@/api/users';
import { FORGOT_PASSWORD_RULES, type ForgotPasswordField } from '@/core/accountValidation';
import { routePath } from '@/core/routes';
import { showToast } from '@/components/toast';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { AuthFooterLink, AuthLayout } from './AuthLayout';

const INITIAL: Record<ForgotPasswordField, string> = { email: '' };

/**
 * Password recovery (spec 000 §2, §8). Without outgoing mail the page shows only a warning. The
 * messages never say whether an account exists.
 */
export function ForgotMyPasswordView() {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const form = useAccountForm({ initialValues: INITIAL, rules: FORGOT_PASSWORD_RULES });
  const [sentTo, setSentTo] = useState<string | null>(null);

  const send = useSubmit(
    async (email: string) => {
      await sendPasswordResetMail(email);
      showToast({ type: 'success', title: t('auth.forgotPassword.sentTitle'), message: t('auth.forgotPassword.sentMessage', { email }) });
      setSentTo(email);
    },
    {
      idleAfterSuccess: true,
      // Bad input and rate limits carry a useful message; anything else is the mail setup's fault.
      onError: (error) => {
        const status = error instanceof ResponseError ? error.httpStatus : undefined;
        const useServerMessage = error instanceof ResponseError && (status === 400 || status === 422 || status === 429);
        showToast({
          type: 'error',
          title: t('auth.forgotPassword.error'),
          message: useServerMessage ? error.message : t('auth.forgotPassword.smtpErrorContactAdministrator'),
        });
      },
    },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit(form.values.email.trim());
  };

  const footer = <AuthFooterLink to={routePath('SigninView')}>{t('auth.backToSignin')}</AuthFooterLink>;

  return (
    <AuthLayout title={t('auth.forgotPassword.title')} testId="forgot-password-form" footer={footer}>
      {!settings.userManagement.smtpSetup ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} data-test-id="forgot-password-no-smtp">
          {t('auth.forgotPassword.noSmtpWarning')}
        </Alert>
      ) : sentTo !== null ? (
        <Alert color="teal" variant="light" data-test-id="forgot-password-sent">
          {t('auth.forgotPassword.sentMessage', { email: sentTo })}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('auth.forgotPassword.intro')}
            </Text>
            <TextInput label={t('auth.email')} type="email" autoComplete="email" placeholder={t('auth.emailPlaceholder')} autoFocus {...form.field('email')} />
            <Button type="submit" fullWidth loading={send.busy} data-test-id="forgot-password-submit">
              {t('auth.forgotPassword.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
