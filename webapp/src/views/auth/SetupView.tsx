import { Anchor, Button, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSettings } from '@/api/settings';
import { countExistingData, setUpOwner, skipOwnerSetup, useSessionUpdate } from '@/api/users';
import { SETUP_RULES, type SetupField } from '@/core/accountValidation';
import { routePath } from '@/core/routes';
import { usePasswordRequirements } from '@/components/forms/passwordRequirements';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { AuthLayout } from './AuthLayout';

const INITIAL: Record<SetupField, string> = { email: '', firstName: '', lastName: '', password: '' };

function confirm(options: { title: string; message: string; confirm: string; cancel: string; testId: string }): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: options.title,
      centered: true,
      children: <Text size="sm">{options.message}</Text>,
      labels: { confirm: options.confirm, cancel: options.cancel },
      confirmProps: { 'data-test-id': `${options.testId}-confirm` } as Record<string, string>,
      cancelProps: { 'data-test-id': `${options.testId}-cancel` } as Record<string, string>,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

/** Owner setup (spec 000 §2, §4): create the owner account, or skip setup for now. */
export function SetupView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { settings } = useSettings();
  // Whether this page was offered on first load decides where a finished setup goes.
  const firstLoad = useRef(settings.userManagement.showSetupOnFirstLoad);
  const session = useSessionUpdate();
  const requirements = usePasswordRequirements();
  const form = useAccountForm({ initialValues: INITIAL, rules: SETUP_RULES });
  const send = useSubmit(
    async () => {
      const existing = await countExistingData();
      if (existing.workflows + existing.credentials > 0) {
        const go = await confirm({
          title: t('auth.setup.confirmTitle'),
          message: t('auth.setup.confirmMigration', existing),
          confirm: t('auth.setup.confirmYes'),
          cancel: t('auth.setup.goBack'),
          testId: 'setup-migrate',
        });
        if (!go) return false;
      }
      const owner = await setUpOwner({
        email: form.values.email.trim(),
        firstName: form.values.firstName.trim(),
        lastName: form.values.lastName.trim(),
        password: form.values.password,
      });
      await session.refreshSettings();
      await session.setUser(owner);
      await navigate(firstLoad.current ? routePath('Homepage') : routePath('UsersSettings'), { replace: true });
      return true;
    },
    { onError: t('auth.setup.error') },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.attemptSubmit()) void send.submit();
  };

  const onSkip = async () => {
    const go = await confirm({
      title: t('auth.setup.skipTitle'),
      message: t('auth.setup.skipMessage'),
      confirm: t('auth.setup.skipConfirm'),
      cancel: t('auth.setup.goBack'),
      testId: 'setup-skip',
    });
    if (!go) return;
    try {
      await skipOwnerSetup();
    } catch {
      // Spec 000 §8: a failed skip is swallowed; the setup page simply shows again next time.
    }
    await session.refreshSettings().catch(() => undefined);
    await navigate(routePath('Homepage'), { replace: true });
  };

  return (
    <AuthLayout title={t('auth.setup.title')} testId="setup-form">
      <Text size="sm" c="dimmed">
        {t('auth.setup.intro')}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label={t('auth.email')} type="email" autoComplete="email" placeholder={t('auth.emailPlaceholder')} autoFocus {...form.field('email')} />
          <SimpleGrid cols={2} spacing="sm">
            <TextInput label={t('auth.firstName')} autoComplete="given-name" {...form.field('firstName')} />
            <TextInput label={t('auth.lastName')} autoComplete="family-name" {...form.field('lastName')} />
          </SimpleGrid>
          <PasswordInput label={t('auth.password')} autoComplete="new-password" description={requirements} inputWrapperOrder={['label', 'input', 'description', 'error']} {...form.field('password')} />
          <Button type="submit" fullWidth loading={send.busy} mt="xs" data-test-id="setup-submit">
            {t('auth.setup.submit')}
          </Button>
          <Group justify="center">
            <Anchor component="button" type="button" size="sm" c="dimmed" onClick={() => void onSkip()} data-test-id="skip-setup-link">
              {t('auth.setup.skip')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthLayout>
  );
}
