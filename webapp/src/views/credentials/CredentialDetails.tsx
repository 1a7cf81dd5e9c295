import { Checkbox, Code, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/core/timeAgo';
import type { CredentialEditor } from './useCredentialEditor';

/** The Details tab: which node types may use the credential, and when it was made. */
export function CredentialDetails({ editor }: { editor: CredentialEditor }) {
  const { t } = useTranslation();
  const { stored } = editor;
  return (
    <Stack gap="lg" data-test-id="credential-details">
      <Stack gap="xs">
        <Title order={5}>{t('credentialEdit.allowUseBy')}</Title>
        {editor.accessible.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('credentialEdit.noNodeAccess')}
          </Text>
        ) : (
          editor.accessible.map((node) => (
            <Checkbox
              key={node.name}
              label={node.displayName}
              checked={editor.nodesAccess.has(node.name)}
              onChange={(event) => editor.toggleAccess(node.name, event.currentTarget.checked)}
              data-test-id="credential-node-access"
              data-node-type={node.name}
            />
          ))
        )}
      </Stack>
      {stored ? (
        <Table variant="vertical" withTableBorder layout="fixed" maw={520}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={140}>{t('credentialEdit.created')}</Table.Th>
              <Table.Td>{formatDateTime(stored.createdAt)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('credentialEdit.lastModified')}</Table.Th>
              <Table.Td>{formatDateTime(stored.updatedAt)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>{t('credentialEdit.id')}</Table.Th>
              <Table.Td>
                <Code data-test-id="credential-id">{stored.id}</Code>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
