import { Collapse, Group, SegmentedControl, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '@/api/settings';
import { currentAppPaths } from '@/core/basePath';
import { WEBHOOK_NODE_TYPE, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';
import { nodeWebhookUrls, type WebhookUrlKind } from '@/core/workflow/webhookUrl';
import { showToast } from '@/components/toast';
import { useEditorState } from '@/views/nodeView/EditorContext';
import classes from './ndv.module.css';


/** The webhook URLs block: test or production URL with its method; a click copies the URL. */
export function NodeWebhooks({ node, type }: { node: WorkflowNode; type: NodeTypeDescription }) {
  const { t } = useTranslation();
  const { settings } = useSettings();
  const workflowId = useEditorState((s) => s.meta.id);
  const [open, setOpen] = useState(type.name === WEBHOOK_NODE_TYPE);
  const [kind, setKind] = useState<WebhookUrlKind>('test');
  const base = settings.urlBaseWebhook || `${window.location.origin}${currentAppPaths().basePath}`;
  const urls = nodeWebhookUrls(node, type, workflowId, kind, {
    base: base.endsWith('/') ? base : `${base}/`,
    endpointWebhook: settings.endpointWebhook,
    endpointWebhookTest: settings.endpointWebhookTest,
  });
  if (urls.length === 0) return null;

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      showToast({ type: 'success', title: t('ndv.webhooks.copied'), message: t('ndv.webhooks.copiedMessage') });
    } catch {
      showToast({ type: 'error', title: t('ndv.webhooks.copyFailed'), message: url });
    }
  };

  return (
    <div className={classes.webhooks} data-test-id="node-webhooks">
      <UnstyledButton onClick={() => setOpen((value) => !value)} className={classes.webhooksToggle} data-test-id="node-webhooks-toggle">
        <Group gap={6}>
          {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          <Text size="sm" fw={600}>
            {t('ndv.webhooks.title')}
          </Text>
        </Group>
      </UnstyledButton>
      <Collapse expanded={open}>
        <Stack gap="xs" pt="xs">
          <SegmentedControl
            size="xs"
            value={kind}
            onChange={(value) => setKind(value as WebhookUrlKind)}
            data={[
              { value: 'test', label: t('ndv.webhooks.test') },
              { value: 'production', label: t('ndv.webhooks.production') },
            ]}
            data-test-id="node-webhooks-kind"
          />
          {urls.map((entry) => (
            <UnstyledButton key={`${entry.method} ${entry.url}`} className={classes.webhookUrl} onClick={() => void copy(entry.url)} title={t('ndv.webhooks.clickToCopy')}>
              <Text span size="xs" fw={700} className={classes.webhookMethod} data-test-id="node-webhook-method">
                {entry.method}
              </Text>
              <Text span size="xs" ff="monospace" className={classes.webhookUrlText} data-test-id="node-webhook-url">
                {entry.url}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      </Collapse>
    </div>
  );
}
