import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CredentialBanner as BannerState } from './useCredentialEditor';

interface CredentialBannerProps {
  banner: BannerState;
  /** The 'Please check the errors below' warning takes precedence. */
  invalid: boolean;
  onRetry: () => void;
  onReconnect: () => void;
  busy: boolean;
}

/** The banners above the fields (spec 002 §8). */
export function CredentialBanner({ banner, invalid, onRetry, onReconnect, busy }: CredentialBannerProps) {
  const { t } = useTranslation();
  if (invalid) {
    return (
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} data-test-id="credential-banner" data-kind="validation">
        {t('credentialEdit.checkErrors')}
      </Alert>
    );
  }
  switch (banner.kind) {
    case 'testing':
      return (
        <Alert color="gray" variant="light" icon={<Loader size={16} />} data-test-id="credential-banner" data-kind="testing">
          {t('credentialEdit.testing')}
        </Alert>
      );
    case 'success':
      return (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} data-test-id="credential-banner" data-kind="success">
          {t('credentialEdit.testSuccess')}
        </Alert>
      );
    case 'connected':
      return (
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} data-test-id="credential-banner" data-kind="connected">
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{t('credentialEdit.accountConnected')}</Text>
            <Button size="compact-sm" variant="subtle" onClick={onReconnect} loading={busy} data-test-id="credential-reconnect">
              {t('credentialEdit.reconnect')}
            </Button>
          </Group>
        </Alert>
      );
    case 'error':
      return (
        <Alert color="red" variant="light" icon={<IconPlugConnectedX size={18} />} title={t('credentialEdit.testFailed')} data-test-id="credential-banner" data-kind="error">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm" style={{ wordBreak: 'break-word' }} data-test-id="credential-banner-details">
              {banner.message}
            </Text>
            <Button size="compact-sm" variant="light" color="red" onClick={onRetry} loading={busy} data-test-id="credential-retry">
              {t('credentialEdit.retry')}
            </Button>
          </Group>
        </Alert>
      );
    default:
      return null;
  }
}
