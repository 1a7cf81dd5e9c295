import { Button, Center, Loader, Modal, ScrollArea, Tabs, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconExternalLink, IconGripVertical, IconSettings } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { completionDataFor } from '@/core/codeEditor/completionData';
import { followingChange } from '@/core/codeEditor/defaultCode';
import { NDV_DEFAULT_POSITION, ndvLayout, positionFor } from '@/core/editor/ndvLayout';
import { applyParameterChange, type ParameterChange } from '@/core/parameters';
import { nodeIssues } from '@/core/workflow/nodeIssues';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import { ExpressionEditorModal, useExpressionResolver } from './expression';
import { NdvContext, type ExpressionEditorRequest, type NdvServices } from './NdvContext';
import { NodeExecuteButton } from './NodeExecuteButton';
import { NodeTitle } from './NodeTitle';
import { NodeTypeUnknown } from './NodeTypeUnknown';
import { NodeWebhooks } from './NodeWebhooks';
import { NodeParameters, NodeSettings } from './parameters';
import { hasInputPanel, InputPanel, OutputPanel, RunDataProvider } from './runData';
import classes from './ndv.module.css';

/** After running a node, how long until the back button may warn that a trigger is awaited (ms). */
const TRIGGER_WARNING_DELAY = 1000;

type SettingsTab = 'parameters' | 'settings';

function newSessionId(): string {
  return `ndv-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * The node details view (spec 001 §2): input data on the left (not for triggers), the node's
 * parameters and settings in a middle panel that can be dragged sideways, output data on the right.
 */
export function NodeDetailsView({ nodeName, onClose, onRun, onStop }: { nodeName: string; onClose: () => void; onRun: (destination: string) => void; onStop: () => void }) {
  const { t } = useTranslation();
  const { store, index, details, readOnly, actions } = useEditor();
  const node = useEditorState((s) => s.graph.nodes.find((n) => n.name === nodeName));
  const execution = useEditorState((s) => s.execution);
  const type = node ? (details?.forNode(node) ?? index.forNode(node)) : undefined;
  const fullType = node ? details?.forNode(node) : undefined;
  const hasInput = hasInputPanel(type);

  const [tab, setTab] = useState<SettingsTab>('parameters');
  const [expression, setExpression] = useState<ExpressionEditorRequest | null>(null);
  const [position, setPosition] = useState(NDV_DEFAULT_POSITION);
  const [width, setWidth] = useState(() => window.innerWidth);
  const [warnTrigger, setWarnTrigger] = useState(false);
  const dragging = useRef<{ startX: number; startLeft: number } | null>(null);
  const sessionId = useMemo(() => (nodeName ? newSessionId() : ''), [nodeName]);
  const resolveExpression = useExpressionResolver(nodeName);

  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  const [seenStatus, setSeenStatus] = useState(execution.status);
  if (execution.status !== seenStatus) {
    setSeenStatus(execution.status);
    if (execution.status === 'idle') setWarnTrigger(false);
  }

  const runTo = useCallback(
    (destination: string) => {
      onRun(destination);
      window.setTimeout(() => {
        if (store.getState().execution.status !== 'idle') setWarnTrigger(true);
      }, TRIGGER_WARNING_DELAY);
    },
    [onRun, store],
  );

  const completionData = useCallback(() => {
    const state = store.getState();
    return completionDataFor(state.graph, state.execution.runData, nodeName);
  }, [store, nodeName]);

  const services: NdvServices = useMemo(
    () => ({ nodeName, readOnly, sessionId, openExpressionEditor: setExpression, resolveExpression, runTo, completionData }),
    [nodeName, readOnly, sessionId, setExpression, resolveExpression, runTo, completionData],
  );

  const close = () => {
    if (dragging.current) return;
    onClose();
  };

  const onChange = (change: ParameterChange) => {
    if (readOnly || !node) return;
    let patch = applyParameterChange(node, fullType, change);
    const following = followingChange(node, change);
    if (following) patch = { ...patch, ...applyParameterChange({ ...node, ...patch }, fullType, following) };
    if (Object.keys(patch).length > 0) actions.updateNode(node.name, { kind: 'updateNode', name: node.name, patch });
  };

  const layout = ndvLayout(width, position, hasInput);
  const startDrag = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!hasInput) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    dragging.current = { startX: event.clientX, startLeft: layout.mainLeft };
  };
  const drag = (event: ReactPointerEvent<HTMLDivElement>) => {
    const start = dragging.current;
    if (start) setPosition(positionFor(width, start.startLeft + event.clientX - start.startX));
  };
  const endDrag = () => {
    // Let the click that ends a drag pass before closing is allowed again.
    window.setTimeout(() => (dragging.current = null), 0);
  };

  const issues = node ? nodeIssues(node, fullType) : [];
  const showTriggerWarning = warnTrigger && hasInput && execution.status === 'waitingForWebhook';

  return (
    <Modal
      opened
      onClose={close}
      fullScreen
      withCloseButton={false}
      closeOnEscape={expression === null}
      transitionProps={{ duration: 0 }}
      overlayProps={{ color: '#1c202c', backgroundOpacity: 0.72 }}
      padding={0}
      classNames={{ content: classes.modalContent, body: classes.modalBody }}
      attributes={{ content: { 'data-test-id': 'ndv' } }}
    >
      <NdvContext.Provider value={services}>
        <RunDataProvider nodeName={nodeName}>
          <div className={classes.backdrop}>
            <div className={classes.topBar}>
              <Tooltip label={t('ndv.backToCanvas.waitingForTriggerWarning')} opened={showTriggerWarning} position="bottom-start" withArrow multiline w={280}>
                <Button variant="white" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={close} data-test-id="back-to-canvas">
                  {t('ndv.backToCanvas')}
                </Button>
              </Tooltip>
            </div>
            {hasInput && layout.inputLeft !== null ? (
              <section className={classes.sidePanel} style={{ left: layout.inputLeft, width: layout.mainLeft - layout.inputLeft }}>
                <InputPanel />
              </section>
            ) : null}
            <section className={classes.sidePanel} style={{ left: layout.outputLeft, width: layout.outputRight - layout.outputLeft }}>
              <OutputPanel onOpenSettings={() => setTab('settings')} />
            </section>
            <section className={classes.mainPanel} style={{ left: layout.mainLeft }} data-test-id="ndv-main-panel">
              {hasInput ? (
                <div
                  className={classes.dragHandle}
                  onPointerDown={startDrag}
                  onPointerMove={drag}
                  onPointerUp={endDrag}
                  data-can-move-left={layout.canMoveLeft}
                  data-can-move-right={layout.canMoveRight}
                  title={t('ndv.dragPanel')}
                  data-test-id="panel-drag-button"
                >
                  <IconGripVertical size={14} />
                </div>
              ) : null}
              {node ? (
                <>
                  <header className={classes.mainHeader}>
                    <NodeTitle name={node.name} type={index.forNode(node)} readOnly={readOnly} onRename={(name) => actions.rename(node.name, name)} />
                    {!readOnly ? (
                      <NodeExecuteButton node={node} type={type} execution={execution} hasIssues={issues.length > 0} onExecute={() => runTo(node.name)} onStop={onStop} />
                    ) : null}
                  </header>
                  <Tabs
                    value={tab}
                    onChange={(value) => {
                      if (value === 'docs') {
                        if (type?.documentationUrl) window.open(type.documentationUrl, '_blank', 'noopener');
                        return;
                      }
                      if (value === 'parameters' || value === 'settings') setTab(value);
                    }}
                    classNames={{ root: classes.tabs, list: classes.tabList, panel: classes.tabPanel }}
                  >
                    <Tabs.List>
                      <Tabs.Tab value="parameters" data-test-id="ndv-tab-parameters">
                        {t('ndv.tabs.parameters')}
                      </Tabs.Tab>
                      {type?.documentationUrl ? (
                        <Tabs.Tab value="docs" rightSection={<IconExternalLink size={12} />} data-test-id="ndv-tab-docs">
                          {t('ndv.docs')}
                        </Tabs.Tab>
                      ) : null}
                      <Tabs.Tab value="settings" ml="auto" aria-label={t('ndv.tabs.settings')} data-test-id="ndv-tab-settings">
                        <IconSettings size={16} />
                      </Tabs.Tab>
                    </Tabs.List>
                    <ScrollArea className={classes.settingsScroll} type="auto" offsetScrollbars>
                      {!type ? (
                        <NodeTypeUnknown node={node} known={index.versions(node.type)} />
                      ) : !fullType ? (
                        <Center p="xl">
                          <Loader size="sm" />
                        </Center>
                      ) : tab === 'parameters' ? (
                        <div className={classes.settingsBody} data-test-id="node-parameters">
                          <NodeWebhooks node={node} type={fullType} />
                          <NodeParameters node={node} type={fullType} onChange={onChange} />
                        </div>
                      ) : (
                        <div className={classes.settingsBody} data-test-id="node-settings">
                          <NodeSettings node={node} type={fullType} onChange={onChange} />
                        </div>
                      )}
                    </ScrollArea>
                  </Tabs>
                </>
              ) : null}
            </section>
          </div>
          <ExpressionEditorModal request={expression} onClose={() => setExpression(null)} />
        </RunDataProvider>
      </NdvContext.Provider>
    </Modal>
  );
}
