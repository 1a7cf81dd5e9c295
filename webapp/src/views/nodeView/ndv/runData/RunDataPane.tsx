import { ActionIcon, Alert, Button, Group, SegmentedControl, Select, Tabs, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconLink, IconUnlink } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskData } from '@/core/push/messages';
import { hasBinaryData } from '@/core/runData/binary';
import { clampPage, PAGE_SIZES, pageCount, pageRange } from '@/core/runData/pagination';
import { outputItems, runItemCount, type RunItem } from '@/core/runData/runs';
import { dataSizeOf, isTooLargeToDisplay, sizeInMB } from '@/core/runData/size';
import type { DisplayMode, PaneType } from '@/core/runData/viewState';
import { NodeErrorView } from './NodeErrorView';
import classes from './runData.module.css';
import { useRunDataView } from './runDataViewContext';
import { RunDataBinary } from './RunDataBinary';
import { RunDataJson } from './RunDataJson';
import { RunDataPager } from './RunDataPager';
import { RunDataTable } from './RunDataTable';

export interface RunLinking {
  canLink: boolean;
  linked: boolean;
  onLink: () => void;
  onUnlink: () => void;
}

export interface RunDataPaneProps {
  pane: PaneType;
  /** Left part of the header: the pane title or the input node choice. */
  title: ReactNode;
  /** Shown instead of data (not run, executing, hints); the header then shows only the title. */
  placeholder?: ReactNode;
  /** Node whose runs are shown. */
  nodeName: string;
  runs: readonly TaskData[];
  /** Run shown, an index into `runs`. */
  runIndex: number;
  onRunChange: (run: number) => void;
  /** Outputs of the node this pane shows (branch tabs when more than one). */
  outputs: readonly number[];
  outputNames?: readonly string[];
  linking: RunLinking;
  /** Extra header content such as the stale-data warning. */
  headerExtra?: ReactNode;
  tooMuchDataTitle: string;
  noDataInBranch: string;
  /** Shown when the run returned no items at all. */
  noData: ReactNode;
  testId: string;
}

function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

function RunInfo({ run }: { run: TaskData }) {
  const { t } = useTranslation();
  const label = (
    <div>
      <div>
        {t('runData.startTime')}: {new Date(run.startTime).toLocaleString()}
      </div>
      <div>
        {t('runData.executionTime')}: {run.executionTime} {t('runData.ms')}
      </div>
    </div>
  );
  return (
    <Tooltip label={label} withinPortal>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`${t('runData.startTime')}, ${t('runData.executionTime')}`} data-test-id="node-run-info">
        <IconInfoCircle size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

function LinkButton({ linking }: { linking: RunLinking }) {
  const { t } = useTranslation();
  if (!linking.canLink) return null;
  const label = linking.linked ? t('runData.unlinking.hint') : t('runData.linking.hint');
  return (
    <Tooltip label={label} withinPortal>
      <ActionIcon
        variant={linking.linked ? 'light' : 'subtle'}
        color="gray"
        size="sm"
        aria-label={label}
        aria-pressed={linking.linked}
        onClick={linking.linked ? linking.onUnlink : linking.onLink}
        data-test-id={linking.linked ? 'unlink-run' : 'link-run'}
      >
        {linking.linked ? <IconUnlink size={16} /> : <IconLink size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}

interface ContentProps {
  mode: DisplayMode;
  items: readonly RunItem[];
  nodeName: string;
  pane: PaneType;
  onShowBinary: () => void;
}

function PagedContent({ mode, items, nodeName, pane, onShowBinary }: ContentProps) {
  const { state, dispatch } = useRunDataView();
  const { page, pageSize } = state.panes[pane];
  const current = clampPage(page, pageCount(items.length, pageSize));
  const { start, end } = pageRange(items.length, current, pageSize);
  const shown = useMemo(() => items.slice(start, end), [items, start, end]);
  return (
    <>
      <div className={classes.dataContainer} data-test-id="ndv-data-container">
        {mode === 'json' ? <RunDataJson items={shown} offset={start} nodeName={nodeName} /> : null}
        {mode === 'table' ? <RunDataTable items={shown} onShowBinary={onShowBinary} /> : null}
        {mode === 'binary' ? <RunDataBinary items={shown} offset={start} /> : null}
      </div>
      {items.length > (PAGE_SIZES[0] ?? 10) ? (
        <RunDataPager
          total={items.length}
          page={current}
          pageSize={pageSize}
          onPage={(next) => dispatch({ type: 'setPage', pane, page: next })}
          onPageSize={(size) => dispatch({ type: 'setPageSize', pane, pageSize: size })}
        />
      ) : null}
    </>
  );
}

function TooMuchData({ title, size, onShow }: { title: string; size: number; onShow: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={classes.centered} data-test-id="ndv-data-size-warning">
      <Alert color="yellow" variant="light" title={title} w="100%">
        <Text size="sm" mb="sm">
          {t('ndv.output.tooMuchData.message', { size: sizeInMB(size).toLocaleString() })}
        </Text>
        <Button size="xs" variant="outline" color="yellow" onClick={onShow} data-test-id="ndv-show-data-anyway">
          {t('ndv.output.tooMuchData.showDataAnyway')}
        </Button>
      </Alert>
    </div>
  );
}

/**
 * One run-data pane (input or output): header with the title, run selector, run link and display
 * mode; branch tabs; then the run's error, a no-data hint, the large-data notice or one page of
 * items as table, JSON or binary cards, with the pager.
 */
export function RunDataPane(props: RunDataPaneProps) {
  const { pane, title, placeholder, nodeName, runs, runIndex, onRunChange, outputs, outputNames, linking, headerExtra, tooMuchDataTitle, noDataInBranch, noData, testId } = props;
  const { t } = useTranslation();
  const { state, dispatch } = useRunDataView();
  const paneState = state.panes[pane];
  const run = placeholder === undefined ? runs[runIndex] : undefined;
  const branch = Math.max(0, Math.min(paneState.branch, outputs.length - 1));
  const items = outputItems(run, outputs[branch] ?? 0);
  const total = runItemCount(run, outputs);
  const hasBinary = useMemo(() => hasBinaryData(items), [items]);
  const size = useMemo(() => dataSizeOf(items), [items]);
  const [shownAnyway, setShownAnyway] = useState<readonly RunItem[] | null>(null);

  useEffect(() => {
    if (run && !run.error && paneState.hadBinary !== hasBinary) dispatch({ type: 'binaryPresence', pane, hasBinary });
  }, [run, hasBinary, paneState.hadBinary, pane, dispatch]);

  const mode: DisplayMode = paneState.displayMode === 'binary' && !hasBinary ? 'table' : paneState.displayMode;
  const showsData = run !== undefined && !run.error && items.length > 0;
  const modes = [
    { value: 'table', label: t('runData.table') },
    { value: 'json', label: t('runData.json') },
    ...(hasBinary ? [{ value: 'binary', label: t('runData.binary') }] : []),
  ];

  const runOptions = runs.map((candidate, index) => {
    const count = runItemCount(candidate, outputs);
    const values = { run: index + 1, total: runs.length, count };
    return { value: String(index), label: count > 0 ? t('runData.runLabel.items', values) : t('runData.runLabel', values) };
  });

  const branchLabel = (output: number) => {
    const name = outputNames?.[output];
    const label = name ? t('runData.branch', { name: capitalize(name) }) : t('runData.output', { index: output + 1 });
    const count = outputItems(run, output).length;
    return count > 0 ? `${label} (${t('runData.items', { count })})` : label;
  };

  let body: ReactNode;
  if (placeholder !== undefined) body = <div className={classes.centered}>{placeholder}</div>;
  else if (!run) body = null;
  else if (run.error) {
    body = (
      <div className={classes.dataContainer}>
        <NodeErrorView error={run.error} nodeName={nodeName} />
      </div>
    );
  } else if (total === 0) body = <div className={classes.centered}>{noData}</div>;
  else if (items.length === 0) {
    body = (
      <div className={classes.centered}>
        <Text c="dimmed" size="sm">
          {noDataInBranch}
        </Text>
      </div>
    );
  } else if (isTooLargeToDisplay(size) && shownAnyway !== items) body = <TooMuchData title={tooMuchDataTitle} size={size} onShow={() => setShownAnyway(items)} />;
  else body = <PagedContent mode={mode} items={items} nodeName={nodeName} pane={pane} onShowBinary={() => dispatch({ type: 'setDisplayMode', pane, mode: 'binary' })} />;

  return (
    <div className={classes.pane} data-test-id={testId}>
      <div className={classes.header} data-test-id="run-data-pane-header">
        {/* Wraps rather than clips when a narrow pane (1280 px screens) cannot hold the title, count and warning on one line. */}
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0, rowGap: 4 }}>
          {title}
          {run && runs.length <= 1 && outputs.length <= 1 && total > 0 && !run.error ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-test-id="ndv-items-count">
              {t('runData.items', { count: total })}
            </Text>
          ) : null}
          {headerExtra}
        </Group>
        {showsData ? (
          <SegmentedControl
            size="xs"
            data={modes}
            value={mode}
            onChange={(value) => dispatch({ type: 'setDisplayMode', pane, mode: value as DisplayMode })}
            aria-label={t('runData.displayMode')}
            data-test-id="ndv-run-data-display-mode"
          />
        ) : null}
      </div>
      {run && runs.length > 1 ? (
        <div className={classes.runRow}>
          <Select
            size="xs"
            w={200}
            data={runOptions}
            value={String(runIndex)}
            allowDeselect={false}
            onChange={(value) => {
              if (value !== null) onRunChange(Number(value));
            }}
            leftSection={
              <Text size="xs" c="dimmed">
                {t('runData.run')}
              </Text>
            }
            leftSectionWidth={40}
            aria-label={t('runData.run')}
            data-test-id="run-selector"
            comboboxProps={{ withinPortal: true }}
          />
          <RunInfo run={run} />
          <LinkButton linking={linking} />
        </div>
      ) : null}
      {run && !run.error && outputs.length > 1 ? (
        <Tabs className={classes.branches} value={String(branch)} onChange={(value) => value !== null && dispatch({ type: 'selectBranch', pane, branch: Number(value) })} data-test-id="branches">
          <Tabs.List>
            {outputs.map((output, index) => (
              <Tabs.Tab key={output} value={String(index)} data-test-id={`branch-${output}`}>
                {branchLabel(output)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      ) : null}
      {body}
    </div>
  );
}
