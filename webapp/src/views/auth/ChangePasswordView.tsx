import { Alert, Anchor, Button, Center, Loader, PasswordInput, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { resetPassword, usePasswordToken, useSessionUpdate } from '@/api/users';
import { RESET_PASSWORD_RULES, type ResetPasswordField } from '@/core/accountValidation';
import { routePath } from '@/core/routes';
import { showErrorToast } from '@/components/errorToast';
import { usePasswordRequirements } from '@/components/forms/passwordRequirements';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { showToast } from '@/components/toast';
import { AuthFooterLink, AuthLayout } from './AuthLayout';

const INITIAL: Record<ResetPasswordField, string> = { password: '', password2: '' };

type TokenState = 'checking' | 'valid' | 'invalid';

/** A new password from a reset link (spec 000 §4): the link's token is checked on load. */
export function ChangePasswordView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const userId = searchParams.get('userId') ?? '';
  const session = useSessionUpdate();
  const requirements = usePasswordRequirements();
  const form = useAccountForm({ initialValues: INITIAL, rules: RESET_PASSWORD_RULES });
  const missing = !token || !userId;
  const check = usePasswordToken(token, userId);
  const state: TokenState = missing || check.error ? 'invalid' : check.data ? 'valid' : 'checking';

  useEffect(() => {
    const error = missing ? new Error(t('auth.changePassword.missingToken')) : check.error;
    if (error) showErrorToast(t('auth.changePassword.tokenValidationError'), error);
  }, [missing, check.error, t]);

  const send = useSubmit(
    async () => {
      await resetPassword(token, userId, form.values.password);
      showToast({ type: 'success', title: t('auth.changePassword.passwordUpdated'), message: t('auth.changePassword.passwordUpdatedMessage') });
      // The server signs the browser in with the new password.
      await session.reloadUser();
      await navigate(routePath('Homepage'), { replace: true });
    },
    { onError: t('auth.changePassword.error') },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit();
  };

  const footer = <AuthFooterLink to={routePath('SigninView')}>{t('auth.backToSignin')}</AuthFooterLink>;

  return (
    <AuthLayout title={t('auth.changePassword.title')} testId="change-password-form" footer={footer}>
      {state === 'checking' ? (
        <Center py="lg">
          <Loader size="sm" />
        </Center>
      ) : null}
      {state === 'invalid' ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-test-id="change-password-invalid">
          {t('auth.changePassword.invalidLink')}{' '}
          <Anchor component={Link} to={routePath('ForgotMyPasswordView')} inherit fw={600}>
            {t('auth.changePassword.requestNewLink')}
          </Anchor>
        </Alert>
      ) : null}
      {state === 'valid' ? (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <PasswordInput label={t('auth.newPassword')} autoComplete="new-password" description={requirements} inputWrapperOrder={['label', 'input', 'description', 'error']} autoFocus {...form.field('password')} />
            <PasswordInput label={t('auth.repeatPassword')} autoComplete="new-password" {...form.field('password2')} />
            <Button type="submit" fullWidth loading={send.busy} mt="xs" data-test-id="change-password-submit">
              {t('auth.changePassword.submit')}
            </Button>
          </Stack>
        </form>
      ) : null}
    </AuthLayout>
  );
}
