import { Anchor, Button, Group, Select, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { connectedOutputs, truncateName } from '@/core/runData/inputNodes';
import { shownOutputs } from '@/core/runData/runs';
import { nodeEndpoints } from '@/core/workflow/nodeEndpoints';
import { useEditor, useEditorState } from '@/views/nodeView/EditorContext';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { MappingSourceContext } from './mappingSource';
import { Executing, PaneTitle } from './panelParts';
import { RunDataPane } from './RunDataPane';
import { useRunDataView } from './runDataViewContext';
import { useRunSelection } from './useRunSelection';

const CONNECTIONS_DOCS_URL = 'https://docs.n8n.io/workflows/connections/';

/**
 * The left pane of the node details view: the data a chosen upstream node produced (by default
 * the parent on input 0), or what to do to get some.
 */
export function InputPanel() {
  const { t } = useTranslation();
  const { nodeName, runTo, readOnly } = useNdv();
  const { index } = useEditor();
  const { dispatch } = useRunDataView();
  const selection = useRunSelection(nodeName);
  const { inputOptions, inputNode, inputRuns, inputRunIndex, outputRunIndex, canLink, linked } = selection;
  const connections = useEditorState((s) => s.graph.connections);
  const parent = useEditorState((s) => s.graph.nodes.find((n) => n.name === inputNode));
  const status = useEditorState((s) => s.execution.status);
  const executing = useEditorState((s) => s.execution.executing);
  const parentType = parent ? index.forNode(parent) : undefined;

  const outputs = useMemo(() => {
    const direct = inputNode ? connectedOutputs(connections, inputNode, nodeName) : [];
    const parentOutputs = parent && parentType ? nodeEndpoints(parentType, parent).outputs : 1;
    return shownOutputs(inputRuns[inputRunIndex], parentOutputs, direct.length > 0 ? direct : null);
  }, [connections, inputNode, nodeName, inputRuns, inputRunIndex, parent, parentType]);

  const distances = new Map(inputOptions.map((option) => [option.name, option.distance]));
  const title =
    inputOptions.length > 0 ? (
      <Group gap="xs" wrap="nowrap">
        <PaneTitle>{t('ndv.input.title')}</PaneTitle>
        <Select
          size="xs"
          w={220}
          data={inputOptions.map((option) => ({ value: option.name, label: truncateName(option.name) }))}
          value={inputNode}
          allowDeselect={false}
          onChange={(value) => value !== null && dispatch({ type: 'selectInputNode', name: value })}
          renderOption={({ option }) => (
            <Group gap={6} wrap="nowrap" data-test-id="ndv-input-option">
              <Text size="sm">{option.label}</Text>
              <Text size="xs" c="dimmed">
                {t('ndv.input.nodeDistance', { count: distances.get(option.value) ?? 1 })}
              </Text>
            </Group>
          )}
          aria-label={t('ndv.input.select')}
          data-test-id="ndv-input-select"
          comboboxProps={{ withinPortal: true, width: 'max-content' }}
        />
      </Group>
    ) : (
      <PaneTitle>{t('ndv.input.title')}</PaneTitle>
    );

  let placeholder;
  if (inputOptions.length === 0 || inputNode === null) {
    placeholder = (
      <>
        <Text fw={700} size="lg">
          {t('ndv.input.notConnected.title')}
        </Text>
        <Text size="sm">
          {t('ndv.input.notConnected.message')}{' '}
          <Anchor href={CONNECTIONS_DOCS_URL} target="_blank" rel="noreferrer" size="sm" data-test-id="ndv-input-learn-more">
            {t('ndv.input.notConnected.learnMore')}
          </Anchor>
        </Text>
      </>
    );
  } else if (inputRuns.length === 0 && inputOptions.some((option) => executing.includes(option.name))) {
    placeholder = <Executing message={t('ndv.input.executingPrevious')} />;
  } else if (inputRuns.length === 0 && status !== 'idle') {
    placeholder = (
      <Text size="sm" c="dimmed" data-test-id="ndv-input-waiting">
        {t('ndv.input.waitingToRun')}
      </Text>
    );
  } else if (inputRuns.length === 0) {
    placeholder = (
      <>
        <Text fw={700} size="lg">
          {t('ndv.input.noOutputData.title')}
        </Text>
        {readOnly ? null : (
          <Button variant="outline" size="sm" leftSection={<IconPlayerPlay size={14} />} onClick={() => runTo(inputNode)} data-test-id="execute-previous-node">
            {t('ndv.input.noOutputData.executePrevious')}
          </Button>
        )}
        <Text size="xs" c="dimmed">
          {t('ndv.input.noOutputData.hint')}
        </Text>
      </>
    );
  }

  const mapping = useMemo(
    () => (inputNode && !readOnly ? { nodeName: inputNode, direct: connectedOutputs(connections, inputNode, nodeName).length > 0 } : null),
    [inputNode, readOnly, connections, nodeName],
  );

  return (
    <MappingSourceContext.Provider value={mapping}>
      <RunDataPane
        pane="input"
        testId="ndv-input-panel"
        title={title}
        placeholder={placeholder}
        nodeName={inputNode ?? ''}
        runs={inputRuns}
        runIndex={inputRunIndex}
        onRunChange={(run) => dispatch({ type: 'selectInputRun', run, canLink })}
        outputs={outputs}
        outputNames={parentType?.outputNames}
        linking={{
          canLink,
          linked,
          onLink: () => dispatch({ type: 'link', inputRun: inputRunIndex }),
          onUnlink: () => dispatch({ type: 'unlink', outputRun: outputRunIndex }),
        }}
        tooMuchDataTitle={t('ndv.input.tooMuchData.title')}
        noDataInBranch={t('ndv.input.noOutputDataInBranch')}
        noData={
          <>
            <Text fw={700} size="lg">
              {t('ndv.input.noOutputData')}
            </Text>
            <Text size="sm">{t('ndv.input.noOutputDataInNode')}</Text>
          </>
        }
      />
    </MappingSourceContext.Provider>
  );
}
