import { ActionIcon, Alert, Anchor, Button, Center, CopyButton, Group, Loader, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy, IconExternalLink } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { createApiKey, deleteApiKey, useApiKey } from '@/api/users';
import { apiPlaygroundPath, isShortenedApiKey } from '@/core/apiKey';
import { currentAppPaths } from '@/core/basePath';
import { showErrorToast } from '@/components/errorToast';
import { useSubmit } from '@/components/forms/useSubmit';
import { SettingsLayout } from '@/components/settings/SettingsLayout';
import { useAccess } from '@/components/settings/useAccess';
import { showToast } from '@/components/toast';

function KeyInput({ apiKey }: { apiKey: string }) {
  const { t } = useTranslation();
  const shortened = isShortenedApiKey(apiKey);
  const copy = shortened ? null : (
    <CopyButton value={apiKey} timeout={2000}>
      {({ copied, copy: doCopy }) => (
        <Tooltip label={copied ? t('settings.api.copied') : t('settings.api.copy')} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : 'gray'}
            aria-label={t('settings.api.copy')}
            data-test-id="copy-api-key"
            onClick={() => {
              doCopy();
              showToast({ type: 'success', title: t('settings.api.copiedTitle'), message: t('settings.api.copiedMessage') });
            }}
          >
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
  return (
    <TextInput
      label={t('settings.api.apiKey')}
      value={apiKey}
      readOnly
      rightSection={copy}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      description={shortened ? t('settings.api.shownOnce') : t('settings.api.copyNow')}
      inputWrapperOrder={['label', 'input', 'description']}
      data-test-id="api-key-input"
      onFocus={(event) => event.currentTarget.select()}
    />
  );
}

/** The personal API key (spec 000 §2, §4): none, created and shown, deleted after confirmation. */
export function APISettings() {
  const { t } = useTranslation();
  const { settings } = useAccess();
  const { apiKey, error, isLoading, setApiKey } = useApiKey();
  const playground = apiPlaygroundPath(currentAppPaths().basePath, settings.publicApi.path, settings.publicApi.latestVersion);

  useEffect(() => {
    if (error) showErrorToast(t('settings.api.viewError'), error);
  }, [error, t]);

  const create = useSubmit(
    async () => {
      const created = await createApiKey();
      await setApiKey(created, { revalidate: false });
    },
    { onError: t('settings.api.createError'), idleAfterSuccess: true },
  );

  const onDelete = () => {
    modals.openConfirmModal({
      title: t('settings.api.deleteTitle'),
      centered: true,
      children: <Text size="sm">{t('settings.api.deleteMessage')}</Text>,
      labels: { confirm: t('settings.api.deleteConfirm'), cancel: t('common.cancel') },
      confirmProps: { variant: 'filled', color: 'red.7', 'data-test-id': 'api-key-delete-confirm' } as Record<string, string>,
      onConfirm: async () => {
        try {
          await deleteApiKey();
          await setApiKey(null, { revalidate: false });
          showToast({ type: 'success', title: t('settings.api.deleted'), message: t('settings.api.deletedMessage') });
        } catch (failure) {
          showErrorToast(t('settings.api.deleteError'), failure);
        }
      },
    });
  };

  return (
    <SettingsLayout active="APISettings" title={t('settings.api.title')} badge={t('settings.api.beta')} testId="api-settings">
      {isLoading ? (
        <Center py="xl">
          <Loader size="sm" />
        </Center>
      ) : null}
      {!isLoading && apiKey ? (
        <Paper withBorder radius="lg" p="lg" data-test-id="api-key-card">
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('settings.api.intro')}
            </Text>
            <KeyInput apiKey={apiKey} />
            <Group justify="space-between">
              <Anchor href={playground} target="_blank" rel="noopener noreferrer" size="sm" fw={500} data-test-id="api-playground-link">
                <Group gap={4} component="span">
                  {t('settings.api.playground')}
                  <IconExternalLink size={14} />
                </Group>
              </Anchor>
              <Anchor component="button" type="button" c="red" size="sm" onClick={onDelete} data-test-id="api-key-delete">
                {t('settings.api.delete')}
              </Anchor>
            </Group>
          </Stack>
        </Paper>
      ) : null}
      {!isLoading && !error && !apiKey ? (
        <Paper withBorder radius="lg" p="xl" bg="gray.0" data-test-id="api-key-empty">
          <Stack align="center" gap="sm" py="md">
            <Title order={2} fz="h4" ta="center">
              {t('settings.api.createTitle')}
            </Title>
            <Text size="sm" c="dimmed" ta="center" maw={480}>
              {t('settings.api.intro')}
            </Text>
            <Button mt="sm" disabled={create.busy} leftSection={create.busy ? <Loader size={14} color="gray" /> : null} onClick={() => void create.submit()} data-test-id="api-key-create">
              {create.busy ? t('settings.api.creating') : t('settings.api.create')}
            </Button>
          </Stack>
        </Paper>
      ) : null}
      {!isLoading && error ? (
        <Alert color="red" variant="light" title={t('settings.api.viewError')}>
          {error instanceof Error ? error.message : String(error)}
        </Alert>
      ) : null}
    </SettingsLayout>
  );
}
