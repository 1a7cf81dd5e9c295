import { Anchor, Button, Divider, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/api/currentUser';
import { updateProfile, useSessionUpdate } from '@/api/users';
import { PROFILE_RULES, type ProfileField } from '@/core/accountValidation';
import { fullName, type User } from '@/core/user';
import { useAccountForm } from '@/components/forms/useAccountForm';
import { useSubmit } from '@/components/forms/useSubmit';
import { openModal } from '@/components/modalHost';
import { SettingsLayout } from '@/components/settings/SettingsLayout';
import { UserAvatar } from '@/components/settings/UserAvatar';
import { showToast } from '@/components/toast';

function profileOf(user: User): Record<ProfileField, string> {
  return { firstName: user.firstName ?? '', lastName: user.lastName ?? '', email: user.email ?? '' };
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const session = useSessionUpdate();
  const form = useAccountForm({ initialValues: profileOf(user), rules: PROFILE_RULES });

  const save = useSubmit(
    async () => {
      const updated = await updateProfile({
        id: user.id,
        firstName: form.values.firstName.trim(),
        lastName: form.values.lastName.trim(),
        email: form.values.email.trim(),
      });
      form.reset(profileOf(updated));
      await session.setUser(updated);
      showToast({ type: 'success', title: t('settings.personal.updated'), message: t('settings.personal.updatedMessage') });
    },
    { onError: t('settings.personal.updateError'), idleAfterSuccess: true },
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (form.isChanged && form.attemptSubmit()) void save.submit();
  };

  return (
    <>
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="xl">
        <Paper withBorder radius="lg" p="lg">
          <Stack gap="md">
            <Title order={2} fz="h4">
              {t('settings.personal.basicInformation')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput label={t('auth.firstName')} autoComplete="given-name" {...form.field('firstName')} />
              <TextInput label={t('auth.lastName')} autoComplete="family-name" {...form.field('lastName')} />
            </SimpleGrid>
            <TextInput label={t('auth.email')} type="email" autoComplete="email" {...form.field('email')} />
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p="lg">
          <Stack gap="xs">
            <Title order={2} fz="h4">
              {t('settings.personal.security')}
            </Title>
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {t('auth.password')}
              </Text>
              <Anchor component="button" type="button" size="sm" fw={500} onClick={() => openModal('changePassword', {})} data-test-id="change-password-link">
                {t('auth.changePassword.title')}
              </Anchor>
            </Group>
          </Stack>
        </Paper>
        <Divider />
        <Group justify="flex-end">
          <Button type="submit" disabled={!form.isChanged || !form.isValid} loading={save.busy} data-test-id="save-settings-button">
            {t('settings.personal.save')}
          </Button>
        </Group>
      </Stack>
    </form>
    </>
  );
}

/** Own profile (spec 000 §2): full name and avatar, the profile form, and password change. */
export function PersonalSettings() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  if (!user) return null;
  const header = (
    <Group gap="sm" wrap="nowrap" data-test-id="personal-header">
      <Stack gap={0} align="flex-end">
        <Text fw={600} data-test-id="current-user-name">
          {fullName(user)}
        </Text>
        <Text size="sm" c="dimmed">
          {user.email}
        </Text>
      </Stack>
      <UserAvatar user={user} size={44} />
    </Group>
  );
  return (
    <SettingsLayout active="PersonalSettings" title={t('settings.personal.title')} actions={header} testId="personal-settings">
      <ProfileForm key={user.id} user={user} />
    </SettingsLayout>
  );
}
