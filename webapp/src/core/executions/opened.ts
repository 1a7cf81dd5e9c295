import type { RunResult } from '@/core/push/messages';

/** What opening a past execution tells the user besides drawing it (spec 001 §8). */
export type OpenedExecutionNotice = { kind: 'failed'; message: string } | { kind: 'waiting' };

type OpenedExecution = Pick<RunResult, 'finished' | 'waitTill'> & { data?: Partial<RunResult['data']> };

/**
 * An unfinished execution with a workflow error but no failed node run gets a 'Failed execution'
 * notice (a node error already shows on its node); a waiting one gets the not-finished notice.
 */
export function openedExecutionNotices(execution: OpenedExecution): OpenedExecutionNotice[] {
  const notices: OpenedExecutionNotice[] = [];
  const resultData = execution.data?.resultData;
  const error = resultData?.error;
  if (execution.finished !== true && error) {
    const nodeFailed = Object.values(resultData.runData ?? {}).some((runs) => runs.some((run) => run.error));
    if (!nodeFailed) notices.push({ kind: 'failed', message: error.message });
  }
  if (execution.waitTill) notices.push({ kind: 'waiting' });
  return notices;
}
