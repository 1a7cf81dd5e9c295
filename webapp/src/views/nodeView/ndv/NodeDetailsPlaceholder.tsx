import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NodeIcon } from '../../../components/NodeIcon';
import { useEditor, useEditorState } from '../EditorContext';

/**
 * The node details view opened by double-click or Enter. The full panel (parameters, input and
 * output data) replaces this component; the editor only relies on `nodeName` and `onClose`.
 */
export function NodeDetailsPlaceholder({ nodeName, onClose }: { nodeName: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { index } = useEditor();
  const node = useEditorState((s) => s.graph.nodes.find((n) => n.name === nodeName));
  const type = node ? index.forNode(node) : undefined;
  return (
    <Modal opened onClose={onClose} fullScreen withCloseButton={false} transitionProps={{ duration: 0 }} attributes={{ content: { 'data-test-id': 'ndv' } }}>
      <Stack gap="lg" p="md">
        <Group>
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={onClose} data-test-id="ndv-back-button">
            {t('ndv.backToCanvas')}
          </Button>
        </Group>
        <Group gap="md">
          <NodeIcon type={type} size={40} fallbackLabel={nodeName} />
          <Stack gap={2}>
            <Text fw={700} size="xl" data-test-id="ndv-node-name">
              {nodeName}
            </Text>
            <Text c="dimmed" size="sm">
              {type ? type.displayName : t('node.issues.typeUnknown')}
            </Text>
          </Stack>
        </Group>
        {type?.description ? <Text>{type.description}</Text> : null}
        {type?.documentationUrl ? (
          <Anchor href={type.documentationUrl} target="_blank" rel="noreferrer">
            {t('ndv.docs')}
          </Anchor>
        ) : null}
      </Stack>
    </Modal>
  );
}
