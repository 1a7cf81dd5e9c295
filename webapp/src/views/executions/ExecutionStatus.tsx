import { Badge, Group, Loader, Text, Tooltip } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { executionDisplayState, explainStatus, type ExecutionDisplayState, type StatusExplanation } from '@/core/executions/status';
import { runTimeMs, TIMER_INTERVAL_MS, timerParts } from '@/core/executions/timer';
import type { ExecutionSummary } from '@/core/executions/types';

const STATE_COLOR: Record<ExecutionDisplayState, string> = {
  success: 'teal',
  error: 'red',
  running: 'yellow',
  waiting: 'yellow',
  unknown: 'orange',
};

function formatDateTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** Start time of an execution as the list shows it: date and time with seconds. */
export function StartedAt({ value }: { value: string }) {
  return <>{formatDateTime(value)}</>;
}

function useExplanation(explanation: StatusExplanation): string {
  const { t } = useTranslation();
  switch (explanation.kind) {
    case 'waitingTill': {
      const date = new Date(explanation.waitTill);
      return t('executionsList.statusTooltip.waitingTill', { date: date.toLocaleDateString(), time: date.toLocaleTimeString() });
    }
    case 'retrySucceeded':
    case 'retryFailed':
      return t(`executionsList.statusTooltip.${explanation.kind}`, { id: explanation.retryOf });
    case 'failedRetrySucceeded':
      return t('executionsList.statusTooltip.failedRetrySucceeded', { id: explanation.retrySuccessId });
    default:
      return t(`executionsList.statusTooltip.${explanation.kind}`);
  }
}

/** The status badge of a list row, with why it has that status in a tooltip. */
export function ExecutionStatusBadge({ execution }: { execution: ExecutionSummary }) {
  const { t } = useTranslation();
  const state = executionDisplayState(execution);
  const explanation = useExplanation(explainStatus(execution));
  return (
    <Tooltip label={explanation} withArrow multiline maw={300}>
      <Badge
        color={STATE_COLOR[state]}
        variant="light"
        tt="none"
        leftSection={state === 'running' ? <Loader size={10} color="yellow" /> : undefined}
        data-test-id="execution-status"
        data-status={state}
      >
        {t(`executionsList.${state}`)}
      </Badge>
    </Tooltip>
  );
}

/** A run time in n8n's timer format: '12 sec.', '1.234 sec.' or '1:05 min'. */
function useFormatRunTime(): (ms: number, withMs?: boolean) => string {
  const { t } = useTranslation();
  return (ms, withMs = false) => {
    const parts = timerParts(ms, withMs);
    return parts.unit === 'seconds'
      ? t('executionsList.timer.seconds', { seconds: parts.seconds })
      : t('executionsList.timer.minutes', { minutes: parts.minutes, seconds: parts.seconds });
  };
}

/** Milliseconds since a start time, updated every second. */
function useElapsed(startedAt: string): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), TIMER_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now - Date.parse(startedAt);
}

function RunningTime({ startedAt }: { startedAt: string }) {
  const format = useFormatRunTime();
  const elapsed = useElapsed(startedAt);
  return <>{Number.isNaN(elapsed) ? '…' : format(elapsed)}</>;
}

/**
 * The run time column: a live timer while running, the time it took once stopped, '--' when
 * the end was never recorded.
 */
export function ExecutionRunTime({ execution }: { execution: ExecutionSummary }) {
  const format = useFormatRunTime();
  const state = executionDisplayState(execution);
  let content;
  if (state === 'running') {
    content = (
      <Group gap={6} wrap="nowrap">
        <Loader size={12} />
        <RunningTime startedAt={execution.startedAt} />
      </Group>
    );
  } else {
    const ms = runTimeMs(execution.startedAt, execution.stoppedAt);
    content = ms === null ? '--' : format(ms, true);
  }
  return (
    <Text size="sm" component="div" data-test-id="execution-run-time">
      {content}
    </Text>
  );
}
