import { ActionIcon, Anchor, Checkbox, Group, Menu, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconExternalLink, IconPlayerStopFilled, IconRotateClockwise } from '@tabler/icons-react';
import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isSelected, selectionState, type ExecutionSelection } from '@/core/executions/selection';
import { canRetry, canStop, isPast } from '@/core/executions/status';
import type { ExecutionSummary } from '@/core/executions/types';
import { ExecutionRunTime, ExecutionStatusBadge, StartedAt } from './ExecutionStatus';
import classes from './executions.module.css';

export interface ExecutionsTableProps {
  rows: readonly ExecutionSummary[];
  selection: ExecutionSelection;
  /** Whether any listed execution can be selected (past executions only). */
  selectable: boolean;
  onToggleAll: () => void;
  onToggleRow: (id: string) => void;
  retrying: ReadonlySet<string>;
  stopping: ReadonlySet<string>;
  /** A plain click on an open link: the dialog closes while the link navigates. */
  onOpen: () => void;
  onRetry: (execution: ExecutionSummary, loadWorkflow: boolean) => void;
  onStop: (execution: ExecutionSummary) => void;
}

const executionPath = (id: string) => `/execution/${encodeURIComponent(id)}`;

/** A click that opens the link here rather than in another tab or window. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** The executions list table (spec 001 §2 'executions list'). */
export function ExecutionsTable(props: ExecutionsTableProps) {
  const { t } = useTranslation();
  const { rows, selection, selectable, onToggleAll } = props;
  const headerState = selectionState(selection);
  return (
    <Table.ScrollContainer minWidth={860} mah="60vh">
      <Table stickyHeader highlightOnHover verticalSpacing="xs" data-test-id="executions-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label={t('executionsList.selectAll')}
                checked={headerState === 'all'}
                indeterminate={headerState === 'some'}
                disabled={!selectable}
                onChange={onToggleAll}
                data-test-id="select-all-executions-checkbox"
              />
            </Table.Th>
            <Table.Th>{t('executionsList.name')}</Table.Th>
            <Table.Th>{t('executionsList.startedAt')}</Table.Th>
            <Table.Th>{t('executionsList.status')}</Table.Th>
            <Table.Th>{t('executionsList.runningTime')}</Table.Th>
            <Table.Th>{t('executionsList.id')}</Table.Th>
            <Table.Th w={120}>
              <VisuallyHidden>{t('executionsList.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((execution) => (
            <ExecutionRow key={execution.id} execution={execution} {...props} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ExecutionRow({ execution, selection, onToggleRow, retrying, stopping, onOpen, onRetry, onStop }: ExecutionsTableProps & { execution: ExecutionSummary }) {
  const { t } = useTranslation();
  const past = isPast(execution);
  const name = execution.workflowName || t('executionsList.unsavedWorkflow');
  const openOnClick = (event: MouseEvent) => {
    if (isPlainClick(event)) onOpen();
  };
  return (
    <Table.Tr data-test-id="execution-list-item" data-execution-id={execution.id} data-current={past ? undefined : true} className={past ? undefined : classes.current}>
      <Table.Td>
        {past ? (
          <Checkbox
            aria-label={t('executionsList.selectExecution', { id: execution.id })}
            checked={isSelected(selection, execution.id)}
            onChange={() => onToggleRow(execution.id)}
            data-test-id="select-execution-checkbox"
          />
        ) : null}
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          {past ? (
            <Anchor component={Link} to={executionPath(execution.id)} onClick={openOnClick} fw={600} size="sm" c="var(--mantine-color-text)" data-test-id="execution-name">
              {name}
            </Anchor>
          ) : (
            <Text fw={600} size="sm" data-test-id="execution-name">
              {name}
            </Text>
          )}
          {execution.retryOf ? (
            <Text size="xs" c="dimmed" data-test-id="execution-retry-of">
              {t('executionsList.retryOf', { id: execution.retryOf })}
            </Text>
          ) : execution.retrySuccessId ? (
            <Text size="xs" c="dimmed" data-test-id="execution-success-retry">
              {t('executionsList.successRetry', { id: execution.retrySuccessId })}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          <StartedAt value={execution.startedAt} />
        </Text>
      </Table.Td>
      <Table.Td>
        <ExecutionStatusBadge execution={execution} />
      </Table.Td>
      <Table.Td>
        <ExecutionRunTime execution={execution} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" c="dimmed" data-test-id="execution-id">
          #{execution.id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          {canStop(execution) ? (
            <Tooltip label={t('executionsList.stopExecution')} withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('executionsList.stopExecution')}
                loading={stopping.has(execution.id)}
                onClick={() => onStop(execution)}
                data-test-id="execution-stop-button"
              >
                <IconPlayerStopFilled size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {canRetry(execution) ? (
            <Menu position="bottom-end" withArrow>
              <Menu.Target>
                <Tooltip label={t('executionsList.retryExecution')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color={execution.stoppedAt === null ? 'orange' : 'red'}
                    aria-label={t('executionsList.retryExecution')}
                    loading={retrying.has(execution.id)}
                    data-test-id="execution-retry-button"
                  >
                    <IconRotateClockwise size={16} />
                  </ActionIcon>
                </Tooltip>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => onRetry(execution, true)} data-test-id="execution-retry-saved">
                  {t('executionsList.retryWithCurrentlySavedWorkflow')}
                </Menu.Item>
                <Menu.Item onClick={() => onRetry(execution, false)} data-test-id="execution-retry-original">
                  {t('executionsList.retryWithOriginalWorkflow')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          ) : null}
          {past ? (
            <Tooltip label={t('executionsList.openPastExecution')} withArrow>
              <ActionIcon
                component={Link}
                to={executionPath(execution.id)}
                onClick={openOnClick}
                variant="subtle"
                color="gray"
                aria-label={t('executionsList.openPastExecution')}
                data-test-id="execution-open-button"
              >
                <IconExternalLink size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
