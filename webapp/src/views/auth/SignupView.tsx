import { Alert, Button, Center, Loader, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { signUp, useSessionUpdate, useSignupToken } from '@/api/users';
import { SIGN_UP_RULES, type SignUpField } from '@/core/accountValidation';
import { routePath } from '@/core/routes';
import { showErrorToast } from '@/components/errorToast';
import { usePasswordRequirements } from '@/components/forms/passwordRequirements';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { AuthFooterLink, AuthLayout } from './AuthLayout';

const INITIAL: Record<SignUpField, string> = { firstName: '', lastName: '', password: '' };

/**
 * Account setup from an invitation (spec 000 §2, §4): the link's inviterId, inviteeId and
 * single-use token are checked on load; a bad link goes to sign-in, a link without them says so.
 */
export function SignupView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const inviterId = searchParams.get('inviterId') ?? '';
  const inviteeId = searchParams.get('inviteeId') ?? '';
  const token = searchParams.get('token') ?? '';
  const session = useSessionUpdate();
  const requirements = usePasswordRequirements();
  const form = useAccountForm({ initialValues: INITIAL, rules: SIGN_UP_RULES });
  const missing = !inviterId || !inviteeId || !token;
  const check = useSignupToken(inviterId, inviteeId, token);

  useEffect(() => {
    if (missing) showErrorToast(t('auth.signup.missingTokenTitle'), new Error(t('auth.signup.missingTokenError')));
  }, [missing, t]);

  useEffect(() => {
    if (!check.error) return;
    showErrorToast(t('auth.signup.tokenValidationError'), check.error);
    void navigate(routePath('SigninView'), { replace: true });
  }, [check.error, navigate, t]);

  const inviter = check.data?.inviter;

  const send = useSubmit(
    async () => {
      const user = await signUp({
        inviterId,
        inviteeId,
        token,
        firstName: form.values.firstName.trim(),
        lastName: form.values.lastName.trim(),
        password: form.values.password,
      });
      await session.setUser(user);
      await navigate(routePath('Homepage'), { replace: true });
    },
    { onError: t('auth.signup.error') },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit();
  };

  const footer = <AuthFooterLink to={routePath('SigninView')}>{t('auth.backToSignin')}</AuthFooterLink>;

  return (
    <AuthLayout title={t('auth.signup.title')} testId="signup-form" footer={footer}>
      {!missing && !inviter ? (
        <Center py="lg">
          <Loader size="sm" />
        </Center>
      ) : null}
      {missing ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-test-id="signup-missing-token">
          {t('auth.signup.missingTokenError')}
        </Alert>
      ) : null}
      {inviter ? (
        <>
          <Text size="sm" c="dimmed" data-test-id="signup-inviter">
            {t('auth.signup.invitedBy', { name: [inviter.firstName, inviter.lastName].filter(Boolean).join(' ') })}
          </Text>
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              <SimpleGrid cols={2} spacing="sm">
                <TextInput label={t('auth.firstName')} autoComplete="given-name" autoFocus {...form.field('firstName')} />
                <TextInput label={t('auth.lastName')} autoComplete="family-name" {...form.field('lastName')} />
              </SimpleGrid>
              <PasswordInput label={t('auth.password')} autoComplete="new-password" description={requirements} inputWrapperOrder={['label', 'input', 'description', 'error']} {...form.field('password')} />
              <Button type="submit" fullWidth loading={send.busy} mt="xs" data-test-id="signup-submit">
                {t('auth.signup.submit')}
              </Button>
            </Stack>
          </form>
        </>
      ) : null}
    </AuthLayout>
  );
}
