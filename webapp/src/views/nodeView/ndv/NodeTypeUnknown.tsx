import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { storedVersion } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';

/**
 * What the NDV shows instead of parameters for a node no description covers (n8n's "Install
 * this node to use it"): its type is unknown, or, when the type has other versions (`known`), its
 * version is, as for a workflow from a newer n8n.
 */
export function NodeTypeUnknown({ node, known }: { node: WorkflowNode; known: readonly number[] }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} m="md" title={t('ndv.typeUnknown.title')} data-test-id="node-type-unknown">
      <Stack gap={6}>
        <Text size="sm">{t('ndv.typeUnknown.description')}</Text>
        <Text size="sm" c="dimmed" data-test-id="node-type-unknown-detail">
          {known.length > 0
            ? t('ndv.typeUnknown.version', { type: node.type, version: storedVersion(node), known: known.join(', ') })
            : t('ndv.typeUnknown.type', { type: node.type })}
        </Text>
      </Stack>
    </Alert>
  );
}
