import { Anchor, Text } from '@mantine/core';
import { showToast } from '@/components/toast';
import type { OpenedExecutionNotice } from '@/core/executions/opened';
import { i18n } from '@/i18n';

/** The Wait node's documentation, linked from the not-finished notice. */
const WAIT_NODE_DOCS = 'https://docs.n8n.io/nodes/n8n-nodes-base.wait/';

function notFinishedMessage() {
  return (
    <Text size="sm" component="div">
      <Anchor component="button" type="button" size="sm" onClick={() => window.location.reload()} data-test-id="execution-reload">
        {i18n.t('executionView.notFinished.refresh')}
      </Anchor>{' '}
      {i18n.t('executionView.notFinished.message')}{' '}
      <Anchor href={WAIT_NODE_DOCS} target="_blank" rel="noreferrer" size="sm">
        {i18n.t('executionView.notFinished.moreInfo')}
      </Anchor>
    </Text>
  );
}

/** Shows what opening a past execution tells besides drawing it. */
export function showOpenedExecutionNotices(notices: readonly OpenedExecutionNotice[]): void {
  for (const notice of notices) {
    if (notice.kind === 'failed') {
      showToast({ type: 'error', title: i18n.t('execution.failed'), message: notice.message });
    } else {
      showToast({ id: 'execution-not-finished', type: 'warning', title: i18n.t('executionView.notFinished.title'), message: notFinishedMessage(), autoClose: false });
    }
  }
}
