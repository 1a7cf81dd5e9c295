import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { signIn, useSessionUpdate } from '@/api/users';
import { SIGN_IN_RULES, type SignInField } from '@/core/accountValidation';
import { isLocalRedirect } from '@/core/redirect';
import { routePath } from '@/core/routes';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { AuthLayout } from './AuthLayout';

const INITIAL: Record<SignInField, string> = { email: '', password: '' };

/** Sign-in (spec 000 §2): no required marks and no checks on blur, only when signing in. */
export function SigninView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const session = useSessionUpdate();
  const form = useAccountForm({ initialValues: INITIAL, rules: SIGN_IN_RULES, validateOnBlur: false });

  const send = useSubmit(
    async () => {
      const user = await signIn({ email: form.values.email.trim(), password: form.values.password });
      const redirect = searchParams.get('redirect');
      await session.setUser(user);
      await navigate(isLocalRedirect(redirect) ? redirect : routePath('Homepage'), { replace: true });
    },
    { onError: t('auth.signin.error') },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit();
  };

  return (
    <AuthLayout title={t('auth.signin.title')} testId="signin-form">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label={t('auth.email')} type="email" autoComplete="email" placeholder={t('auth.emailPlaceholder')} data-autofocus autoFocus {...form.field('email')} />
          <PasswordInput label={t('auth.password')} autoComplete="current-password" {...form.field('password')} />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={routePath('ForgotMyPasswordView')} size="sm" data-test-id="forgot-password-link">
              {t('auth.signin.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={send.busy} data-test-id="signin-button">
            {t('auth.signin.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
