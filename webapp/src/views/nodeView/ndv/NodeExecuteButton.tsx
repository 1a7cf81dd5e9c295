import { Button, Tooltip } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { executeBlockedReason, executeLabel, type ExecuteButtonState } from '@/core/editor/nodeExecute';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';

/**
 * Runs the workflow up to the open node; while this node's run waits for a test webhook call it
 * stops listening instead. Disabled with the reason in a tooltip when the node has issues, is
 * disabled, or another run is going on.
 */
export function NodeExecuteButton({
  node,
  type,
  execution,
  hasIssues,
  onExecute,
  onStop,
}: {
  node: WorkflowNode;
  type: NodeTypeDescription | undefined;
  execution: ExecuteButtonState;
  hasIssues: boolean;
  onExecute: () => void;
  onStop: () => void;
}) {
  const { t } = useTranslation();
  // Whether the current run was started from this button.
  const [started, setStarted] = useState(false);
  const [seenStatus, setSeenStatus] = useState(execution.status);
  if (execution.status !== seenStatus) {
    setSeenStatus(execution.status);
    if (execution.status === 'idle') setStarted(false);
  }
  const ownRun = started && execution.status !== 'idle';
  const listening = ownRun && execution.status === 'waitingForWebhook';
  const executing = execution.executing.includes(node.name) || (ownRun && execution.status !== 'waitingForWebhook');
  const otherRun = execution.status !== 'idle' && !ownRun;
  const reasonKey = executeBlockedReason({ disabled: node.disabled === true, hasIssues, otherRun });
  const reason = reasonKey === null ? null : t(reasonKey);
  return (
    <Tooltip label={reason} disabled={reason === null} withArrow>
      <Button
        size="xs"
        color={listening ? 'gray' : 'orange'}
        variant={listening ? 'outline' : 'filled'}
        leftSection={listening ? <IconPlayerStop size={14} /> : <IconPlayerPlay size={14} />}
        loading={executing && !listening}
        disabled={reason !== null && !listening}
        onClick={() => {
          if (listening) {
            onStop();
            return;
          }
          setStarted(true);
          onExecute();
        }}
        data-test-id="node-execute-button"
      >
        {t(executeLabel(type, listening, executing))}
      </Button>
    </Tooltip>
  );
}
