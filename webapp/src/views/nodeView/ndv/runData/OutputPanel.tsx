import { Anchor, Button, Collapse, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconChevronDown, IconChevronRight, IconPlayerPlay } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { executeBlockedReason } from '@/core/editor/nodeExecute';
import { shownOutputs } from '@/core/runData/runs';
import { nodeIssues } from '@/core/workflow/nodeIssues';
import { canActivateWorkflow, isTriggerType, WEBHOOK_NODE_TYPE, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import { nodeEndpoints } from '@/core/workflow/nodeEndpoints';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { Executing, PaneTitle } from './panelParts';
import { RunDataPane } from './RunDataPane';
import { useRunDataView } from './runDataViewContext';
import { useRunSelection } from './useRunSelection';


/** Triggers, polling nodes and webhook nodes start a workflow; their hints differ. */
function isTriggerLike(type: NodeTypeDescription | undefined): boolean {
  return !!type && (isTriggerType(type) || type.polling === true || (type.webhooks?.length ?? 0) > 0);
}

/** The service a trigger listens to, as n8n names it: the display name without "Trigger". */
function serviceName(type: NodeTypeDescription): string {
  return type.displayName.replace(/\s*trigger$/i, '') || type.displayName;
}

function TriggerHelp({ type, active }: { type: NodeTypeDescription; active: boolean }) {
  const { t } = useTranslation();
  const [opened, { toggle }] = useDisclosure(false);
  const key = type.polling ? (active ? 'ndv.output.trigger.pollingHelp.active' : 'ndv.output.trigger.pollingHelp.inactive') : active ? 'ndv.output.trigger.webhookHelp.active' : 'ndv.output.trigger.webhookHelp.inactive';
  return (
    <div>
      <UnstyledButton onClick={toggle} aria-expanded={opened} data-test-id="ndv-trigger-help-toggle">
        <Text size="sm" c="blue" span>
          {opened ? <IconChevronDown size={12} /> : <IconChevronRight size={12} />} {t('ndv.output.trigger.executionsHint.question')}
        </Text>
      </UnstyledButton>
      <Collapse expanded={opened}>
        <Text size="xs" c="dimmed" mt="xs" ta="left">
          {t(key, { service: serviceName(type) })}
        </Text>
      </Collapse>
    </div>
  );
}

export interface OutputPanelProps {
  /** Opens the node settings tab, where "Always Output Data" lives. */
  onOpenSettings?: () => void;
}

/**
 * The right pane of the node details view: the open node's output of the shown run, with hints
 * while it has not run, is executing, or waits for a trigger event, and a warning when the
 * parameters changed after the shown run started.
 */
export function OutputPanel({ onOpenSettings }: OutputPanelProps) {
  const { t } = useTranslation();
  const { nodeName, runTo, readOnly } = useNdv();
  const { index, details } = useEditor();
  const { dispatch } = useRunDataView();
  const { outputRuns, outputRunIndex, canLink, linked } = useRunSelection(nodeName);
  const node = useEditorState((s) => s.graph.nodes.find((n) => n.name === nodeName));
  const status = useEditorState((s) => s.execution.status);
  const executing = useEditorState((s) => s.execution.executing.includes(nodeName));
  const changedAt = useEditorState((s) => s.parametersChangedAt[nodeName]);
  const active = useEditorState((s) => s.meta.active);
  const type = node ? index.forNode(node) : undefined;
  const endpoints = node && type ? nodeEndpoints(type, node) : undefined;
  const trigger = isTriggerLike(type);
  // Disabled for the same reasons as the panel header's Execute Node button.
  const fullType = node ? details?.forNode(node) : undefined;
  const blockedKey = node ? executeBlockedReason({ disabled: node.disabled === true, hasIssues: details !== null && nodeIssues(node, fullType).length > 0, otherRun: status !== 'idle' }) : null;
  const run = outputRuns[outputRunIndex];

  let placeholder: ReactNode;
  if (executing && type?.polling) {
    placeholder = (
      <>
        <Executing message={t('ndv.output.trigger.fetchingEvent')} />
        <Text size="xs" c="dimmed">
          {t('ndv.output.trigger.fetchingHint', { name: serviceName(type) })}
        </Text>
      </>
    );
  } else if (executing) {
    placeholder = <Executing message={t('ndv.output.executing')} />;
  } else if (outputRuns.length === 0 && trigger && type && status === 'waitingForWebhook') {
    const webhookNode = type.name === WEBHOOK_NODE_TYPE;
    placeholder = (
      <>
        <Executing message={webhookNode ? t('ndv.output.trigger.webhookListening') : t('ndv.output.trigger.listening')} />
        <Text size="xs" c="dimmed" data-test-id="ndv-trigger-listening-hint">
          {webhookNode ? t('ndv.output.trigger.webhookRequestHint') : t('ndv.output.trigger.serviceHint', { service: serviceName(type) })}
        </Text>
      </>
    );
  } else if (outputRuns.length === 0 && status !== 'idle' && !trigger) {
    placeholder = (
      <Text size="sm" c="dimmed" data-test-id="ndv-output-waiting">
        {t('ndv.output.waitingToRun')}
      </Text>
    );
  } else if (outputRuns.length === 0) {
    placeholder = (
      <>
        <Text size="sm" c="dimmed" data-test-id="ndv-output-run-node-hint">
          {t('ndv.output.runNodeHint')}
        </Text>
        {readOnly ? null : (
          <Tooltip label={blockedKey === null ? null : t(blockedKey)} disabled={blockedKey === null} withArrow>
            <Button variant="outline" size="sm" leftSection={<IconPlayerPlay size={14} />} onClick={() => runTo(nodeName)} disabled={blockedKey !== null} data-test-id="ndv-output-execute-node">
              {t('runData.executeNode')}
            </Button>
          </Tooltip>
        )}
        {type && canActivateWorkflow(type) ? <TriggerHelp type={type} active={active} /> : null}
      </>
    );
  }

  const stale = run !== undefined && changedAt !== undefined && changedAt > run.startTime;
  const staleWarning = stale ? (
    <Tooltip label={t('ndv.output.staleDataWarning.regular')} withinPortal multiline w={240}>
      <ThemeIcon variant="transparent" color="yellow" size="sm" aria-label={t('ndv.output.staleDataWarning.regular')} data-test-id="ndv-stale-data-warning">
        <IconAlertTriangle size={16} />
      </ThemeIcon>
    </Tooltip>
  ) : null;

  return (
    <RunDataPane
      pane="output"
      testId="output-panel"
      title={<PaneTitle>{t('ndv.output.title')}</PaneTitle>}
      placeholder={placeholder}
      nodeName={nodeName}
      runs={outputRuns}
      runIndex={outputRunIndex}
      onRunChange={(selected) => dispatch({ type: 'selectOutputRun', run: selected })}
      outputs={shownOutputs(run, endpoints?.outputs ?? 1, null)}
      outputNames={endpoints?.outputNames}
      linking={{ canLink, linked, onLink: () => dispatch({ type: 'link' }), onUnlink: () => dispatch({ type: 'unlink', outputRun: outputRunIndex }) }}
      headerExtra={staleWarning}
      tooMuchDataTitle={t('ndv.output.tooMuchData.title')}
      noDataInBranch={t('ndv.output.noOutputDataInBranch')}
      noData={
        <>
          <Text fw={700} size="lg">
            {t('ndv.output.noOutputData.title')}
          </Text>
          <Text size="sm">
            {t('ndv.output.noOutputData.message')}{' '}
            {onOpenSettings ? (
              <Anchor component="button" size="sm" onClick={onOpenSettings} data-test-id="ndv-open-settings">
                {t('ndv.output.noOutputData.message.settings')}
              </Anchor>
            ) : (
              t('ndv.output.noOutputData.message.settings')
            )}{' '}
            {t('ndv.output.noOutputData.message.settingsOption')}
          </Text>
        </>
      }
    />
  );
}
