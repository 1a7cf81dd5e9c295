import { Button, Center, Checkbox, Group, Loader, LoadingOverlay, Select, Text, Tooltip } from '@mantine/core';
import { StackedModal } from '@/components/modalHost';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteExecutions, retryExecution, stopExecution } from '@/api/executions';
import { useWorkflowList } from '@/api/workflows';
import { showErrorToast } from '@/components/errorToast';
import { useSubmit } from '@/components/forms/useSubmit';
import { showToast } from '@/components/toast';
import { pastExecutionsQuery } from '@/core/executions/filter';
import { deleteRequest, EMPTY_SELECTION, pruneSelection, selectedCount, toggleAll, toggleRow, type ExecutionSelection } from '@/core/executions/selection';
import { ALL_WORKFLOWS, EXECUTION_STATUS_FILTERS, type DeleteExecutionsRequest, type ExecutionStatusFilter, type ExecutionSummary } from '@/core/executions/types';
import { confirmModal } from '@/components/confirm';
import { ExecutionsTable } from './ExecutionsTable';
import { useExecutionsList } from './useExecutionsList';
import classes from './executions.module.css';

const STATUS_LABEL: Record<ExecutionStatusFilter, string> = {
  ALL: 'executionsList.anyStatus',
  error: 'executionsList.error',
  running: 'executionsList.running',
  success: 'executionsList.success',
  waiting: 'executionsList.waiting',
};

function withId(set: ReadonlySet<string>, id: string, present: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (present) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * The executions list dialog (n8n's ExecutionsList): filters by workflow and status, auto
 * refresh, paging by 'Load more', open, retry, stop, and deleting a selection. Its state lives
 * here and ends when it closes.
 */
export function ExecutionsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const list = useExecutionsList();
  const { data: workflows, error: workflowsError } = useWorkflowList();
  const [chosen, setChosen] = useState<ExecutionSelection>(EMPTY_SELECTION);
  const [retrying, setRetrying] = useState<ReadonlySet<string>>(new Set());
  const [stopping, setStopping] = useState<ReadonlySet<string>>(new Set());

  useEffect(() => {
    if (workflowsError) showErrorToast(t('executionsList.showError.loadWorkflows.title'), workflowsError);
  }, [workflowsError, t]);

  const workflowOptions = useMemo(
    () => [
      { value: ALL_WORKFLOWS, label: t('executionsList.allWorkflows') },
      ...[...(workflows ?? [])]
        .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
        .map((workflow) => ({ value: workflow.id, label: workflow.name })),
    ],
    [workflows, t],
  );
  const statusOptions = EXECUTION_STATUS_FILTERS.map((status) => ({ value: status, label: t(STATUS_LABEL[status]) }));

  const pastIds = list.past.map((execution) => execution.id);
  const selection = pruneSelection(chosen, pastIds);
  const numSelected = selectedCount(selection, list.pastCount);
  const total = list.estimated ? `~${list.total}` : String(list.total);

  const changeFilter = (next: typeof list.filter) => {
    setChosen(EMPTY_SELECTION);
    list.setFilter(next);
  };

  const retry = async (execution: ExecutionSummary, loadWorkflow: boolean) => {
    setRetrying((set) => withId(set, execution.id, true));
    try {
      const succeeded = await retryExecution(execution.id, loadWorkflow);
      if (succeeded) showToast({ type: 'success', message: t('executionsList.showMessage.retrySuccessfulTrue.title') });
      else showToast({ type: 'error', message: t('executionsList.showMessage.retrySuccessfulFalse.title') });
      await list.refresh();
    } catch (error) {
      showErrorToast(t('executionsList.showError.retryExecution.title'), error);
    } finally {
      setRetrying((set) => withId(set, execution.id, false));
    }
  };

  const stop = async (execution: ExecutionSummary) => {
    setStopping((set) => withId(set, execution.id, true));
    try {
      await stopExecution(execution.id);
      showToast({ type: 'success', title: t('execution.stopped'), message: t('execution.stoppedMessage', { id: execution.id }) });
      await list.refresh();
    } catch (error) {
      showErrorToast(t('execution.stopError'), error);
    } finally {
      setStopping((set) => withId(set, execution.id, false));
    }
  };

  const remove = useSubmit(
    async (body: DeleteExecutionsRequest) => {
      await deleteExecutions(body);
      showToast({ type: 'success', message: t('executionsList.showMessage.handleDeleteSelected.title') });
      setChosen(EMPTY_SELECTION);
      await list.refresh();
    },
    { onError: t('executionsList.showError.handleDeleteSelected.title'), idleAfterSuccess: true },
  );

  const removeSelected = async () => {
    const body = deleteRequest(selection, pastExecutionsQuery(list.filter), list.past);
    if (body === null) return;
    const confirmed = await confirmModal({
      title: t('executionsList.confirmMessage.headline'),
      message: t('executionsList.confirmMessage.message', { count: numSelected }),
      confirm: t('executionsList.confirmMessage.confirmButtonText'),
      cancel: t('executionsList.confirmMessage.cancelButtonText'),
      danger: true,
    });
    if (confirmed) await remove.submit(body);
  };

  const empty = list.rows.length === 0;
  return (
    <StackedModal
      opened
      onClose={onClose}
      size="80%"
      title={
        <Group gap="sm" align="baseline">
          <Text component="span" fw={600} size="lg">
            {t('executionsList.workflowExecutions')}
          </Text>
          <Tooltip label={t('executionsList.countEstimated')} disabled={!list.estimated} withArrow>
            <Text component="span" c="dimmed" size="sm" data-test-id="executions-count">
              {t('executionsList.count', { shown: list.rows.length, total })}
            </Text>
          </Tooltip>
        </Group>
      }
      attributes={{ content: { 'data-test-id': 'executions-list-modal' } }}
    >
      <div className={classes.toolbar}>
        <Select
          aria-label={t('executionsList.selectWorkflow')}
          placeholder={t('executionsList.selectWorkflow')}
          data={workflowOptions}
          value={list.filter.workflowId}
          onChange={(value) => changeFilter({ ...list.filter, workflowId: value ?? ALL_WORKFLOWS })}
          allowDeselect={false}
          searchable
          w={280}
          data-test-id="executions-filter-workflow"
        />
        <Select
          aria-label={t('executionsList.selectStatus')}
          placeholder={t('executionsList.selectStatus')}
          data={statusOptions}
          value={list.filter.status}
          onChange={(value) => changeFilter({ ...list.filter, status: (value ?? 'ALL') as ExecutionStatusFilter })}
          allowDeselect={false}
          w={200}
          data-test-id="executions-filter-status"
        />
        <Checkbox
          ml="auto"
          label={t('executionsList.autoRefresh')}
          checked={list.autoRefresh}
          onChange={(event) => list.setAutoRefresh(event.currentTarget.checked)}
          data-test-id="execution-auto-refresh-checkbox"
        />
      </div>

      <div className={classes.selectionBar}>
        {numSelected > 0 ? (
          <Group gap="sm" data-test-id="selected-executions-info">
            <Text size="sm">{t('executionsList.selected', { count: numSelected, total: list.estimated ? `~${list.pastCount}` : list.pastCount })}</Text>
            <Button size="compact-sm" color="red" variant="light" leftSection={<IconTrash size={14} />} loading={remove.busy} onClick={() => void removeSelected()} data-test-id="delete-selected-button">
              {t('executionsList.deleteSelected')}
            </Button>
            <Button size="compact-sm" variant="subtle" color="gray" onClick={() => setChosen(EMPTY_SELECTION)} data-test-id="clear-selection-button">
              {t('executionsList.clearSelection')}
            </Button>
          </Group>
        ) : null}
      </div>

      {list.loading && empty ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <div style={{ position: 'relative' }}>
          <LoadingOverlay visible={list.loading} zIndex={5} overlayProps={{ blur: 1 }} />
          <ExecutionsTable
            rows={list.rows}
            selection={selection}
            selectable={pastIds.length > 0}
            onToggleAll={() => setChosen(toggleAll(selection))}
            onToggleRow={(id) => setChosen(toggleRow(selection, id, pastIds))}
            retrying={retrying}
            stopping={stopping}
            onOpen={onClose}
            onRetry={(execution, loadWorkflow) => void retry(execution, loadWorkflow)}
            onStop={(execution) => void stop(execution)}
          />
          {empty ? (
            <Text c="dimmed" ta="center" py="xl" data-test-id="execution-list-empty">
              {t('executionsList.empty')}
            </Text>
          ) : null}
        </div>
      )}

      <div className={classes.footer}>
        {list.hasMore ? (
          <Button variant="default" leftSection={<IconRefresh size={16} />} loading={list.loadingMore} onClick={() => void list.loadMore()} data-test-id="load-more-button">
            {t('executionsList.loadMore')}
          </Button>
        ) : !empty && !list.loading ? (
          <Text c="dimmed" size="sm" data-test-id="execution-all-loaded">
            {t('executionsList.loadedAll')}
          </Text>
        ) : null}
      </div>
    </StackedModal>
  );
}
