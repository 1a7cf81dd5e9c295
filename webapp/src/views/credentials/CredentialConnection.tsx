import { ActionIcon, Anchor, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCopy, IconExternalLink, IconPlugConnected } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/settings';
import { showToast } from '@/components/toast';
import { documentationLink, shownProperties } from '@/core/credentials';
import { CredentialBanner } from './CredentialBanner';
import { CredentialField } from './CredentialField';
import type { CredentialEditor } from './useCredentialEditor';

/** The Connection tab: banners, documentation link, OAuth redirect URL and connect button, the type's fields. */
export function CredentialConnection({ editor }: { editor: CredentialEditor }) {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const { type, oauth } = editor;
  if (!type) return null;
  const docs = documentationLink(type.documentationUrl);
  const redirectUrl = oauth ? settings.oauthCallbackUrls[oauth === 'oAuth1' ? 'oauth1' : 'oauth2'] : undefined;
  const invalid = editor.showValidation && editor.missing.length > 0;

  const copy = async () => {
    if (!redirectUrl) return;
    try {
      await navigator.clipboard.writeText(redirectUrl);
      showToast({ type: 'success', message: t('credentialEdit.copied') });
    } catch (error) {
      showToast({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <Stack gap="md" data-test-id="credential-connection">
      <CredentialBanner banner={editor.banner} invalid={invalid} busy={editor.busy !== null} onRetry={editor.retry} onReconnect={() => void editor.connect()} />
      {docs ? (
        <Text size="sm" c="dimmed">
          {t('credentialEdit.needHelp')}{' '}
          <Anchor href={docs} target="_blank" rel="noreferrer" size="sm" data-test-id="credential-docs-link">
            {t('credentialEdit.openDocs')} <IconExternalLink size={12} style={{ verticalAlign: 'middle' }} />
          </Anchor>
        </Text>
      ) : null}
      {redirectUrl ? (
        <TextInput
          label={t('credentialEdit.redirectUrl')}
          description={t('credentialEdit.redirectUrl.description')}
          value={redirectUrl}
          readOnly
          data-test-id="credential-redirect-url"
          rightSection={
            <Tooltip label={t('credentialEdit.copy')} withinPortal zIndex={1000}>
              <ActionIcon variant="subtle" onClick={() => void copy()} aria-label={t('credentialEdit.copy')} data-test-id="credential-copy-redirect">
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          }
        />
      ) : null}
      {shownProperties(editor.properties, editor.filled).map((property) => (
        <CredentialField
          key={property.name}
          property={property}
          value={editor.filled[property.name]}
          showRequired={editor.showValidation}
          onChange={(value) => editor.setField(property.name, value)}
        />
      ))}
      {oauth && !editor.connected ? (
        <Group>
          <Button leftSection={<IconPlugConnected size={16} />} onClick={() => void editor.connect()} loading={editor.busy === 'connecting' || editor.busy === 'saving'} data-test-id="credential-connect">
            {t('credentialEdit.connect')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
