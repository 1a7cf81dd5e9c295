import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import { IconFocus2, IconNote, IconPlayerPlayFilled, IconPlayerStopFilled, IconPlus, IconTrash, IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';
import { useReactFlow } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { steppedZoom } from '@/core/workflow/canvas';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import classes from './controls.module.css';
import { FIT_VIEW } from './viewport';

/** Zoom buttons, the add-node and add-sticky buttons, and the run bar over the canvas. */
export function CanvasControls({ onAddSticky, onStop, onClearExecution }: { onAddSticky: () => void; onStop: () => void; onClearExecution: () => void }) {
  const { t } = useTranslation();
  const { readOnly, mode, actions } = useEditor();
  const flow = useReactFlow();
  const status = useEditorState((s) => s.execution.status);
  const hasRunData = useEditorState((s) => s.execution.runData !== null);
  const hasNodes = useEditorState((s) => s.graph.nodes.length > 0);
  const zoomBy = (direction: 'in' | 'out') => void flow.zoomTo(steppedZoom(flow.getZoom(), direction), { duration: 120 });

  const running = status !== 'idle';
  const runLabel = status === 'waitingForWebhook' ? t('nodeView.runButton.waiting') : running ? t('nodeView.runButton.executing') : t('nodeView.runButton.execute');

  return (
    <>
      {!readOnly ? (
        <div className={classes.topRight}>
          <Tooltip label={t('nodeView.addNode')} position="left" withArrow>
            <ActionIcon size={40} radius="md" variant="default" aria-label={t('nodeView.addNode')} data-test-id="node-creator-plus-button" onClick={() => actions.ui.openCreator()}>
              <IconPlus size={20} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('nodeView.addSticky')} position="left" withArrow>
            <ActionIcon size={40} radius="md" variant="default" aria-label={t('nodeView.addSticky')} data-test-id="add-sticky-button" onClick={onAddSticky}>
              <IconNote size={20} />
            </ActionIcon>
          </Tooltip>
        </div>
      ) : null}

      <Group gap={6} className={classes.zoom}>
        <ActionIcon size={36} radius="md" variant="default" aria-label={t('nodeView.zoomToFit')} title={t('nodeView.zoomToFit')} data-test-id="zoom-to-fit" onClick={() => void flow.fitView(FIT_VIEW)}>
          <IconFocus2 size={18} />
        </ActionIcon>
        <ActionIcon size={36} radius="md" variant="default" aria-label={t('nodeView.zoomIn')} title={t('nodeView.zoomIn')} data-test-id="zoom-in-button" onClick={() => zoomBy('in')}>
          <IconZoomIn size={18} />
        </ActionIcon>
        <ActionIcon size={36} radius="md" variant="default" aria-label={t('nodeView.zoomOut')} title={t('nodeView.zoomOut')} data-test-id="zoom-out-button" onClick={() => zoomBy('out')}>
          <IconZoomOut size={18} />
        </ActionIcon>
        <ActionIcon size={36} radius="md" variant="default" aria-label={t('nodeView.resetZoom')} title={t('nodeView.resetZoom')} data-test-id="reset-zoom-button" onClick={() => void flow.zoomTo(1, { duration: 120 })}>
          <IconZoomReset size={18} />
        </ActionIcon>
      </Group>

      {mode !== 'demo' && mode !== 'execution' ? (
        <Group gap={8} className={classes.runBar}>
          <Button
            size="md"
            radius="md"
            color="flowmill"
            leftSection={<IconPlayerPlayFilled size={16} />}
            loading={false}
            disabled={running || !hasNodes}
            data-test-id="execute-workflow-button"
            data-state={status}
            onClick={() => actions.ui.runWorkflow()}
          >
            {runLabel}
          </Button>
          {running ? (
            <Tooltip label={status === 'waitingForWebhook' ? t('nodeView.stopWaiting') : t('nodeView.stopExecution')} withArrow>
              <ActionIcon
                size={42}
                radius="md"
                color="red"
                variant="light"
                aria-label={status === 'waitingForWebhook' ? t('nodeView.stopWaiting') : t('nodeView.stopExecution')}
                data-test-id="stop-execution-button"
                loading={status === 'stopping'}
                onClick={onStop}
              >
                <IconPlayerStopFilled size={18} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {!running && hasRunData ? (
            <Tooltip label={t('nodeView.clearExecution')} withArrow>
              <ActionIcon size={42} radius="md" variant="default" aria-label={t('nodeView.clearExecution')} data-test-id="clear-execution-data-button" onClick={onClearExecution}>
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      ) : null}
    </>
  );
}
