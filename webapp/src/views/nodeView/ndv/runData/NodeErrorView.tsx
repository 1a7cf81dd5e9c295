import { Accordion, ActionIcon, Alert, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { asNodeError, nodeErrorMessage, parameterDisplayPath } from '@/core/runData/errorMessage';
import { ERROR_CAUSE_DEPTH } from '@/core/runData/jsonLines';
import { fitsDisplay } from '@/core/runData/size';
import { EditorContext } from '@/views/nodeView/EditorContext';
import { NdvContext } from '@/views/nodeView/ndv/NdvContext';
import { copyText } from './copyText';
import { JsonTree } from './JsonTree';
import classes from './runData.module.css';

export interface NodeErrorViewProps {
  /** A run's error (TaskData.error). */
  error: unknown;
  /** Node that failed, for naming parameters; defaults to the open node. */
  nodeName?: string;
}

function useNodeProperties(nodeName: string | undefined) {
  const editor = useContext(EditorContext);
  const ndv = useContext(NdvContext);
  const name = nodeName ?? ndv?.nodeName;
  return useMemo(() => {
    if (!editor || !name) return [];
    const node = editor.store.getState().graph.nodes.find((n) => n.name === name);
    const type = node ? (editor.details?.forNode(node) ?? editor.index.forNode(node)) : undefined;
    return type?.properties ?? [];
  }, [editor, name]);
}

function formatTime(timestamp: number): string {
  return new Date(timestamp).toLocaleString();
}

/**
 * A run's error (spec 001 §8): "Error: message" with the parameter named by its display path,
 * the description, then details (time, HTTP code, item and run index, parameter), the cause as a
 * copyable JSON tree and the stack.
 */
export function NodeErrorView({ error: raw, nodeName }: NodeErrorViewProps) {
  const { t } = useTranslation();
  const properties = useNodeProperties(nodeName);
  const error = asNodeError(raw);
  if (!error) return null;

  const message = nodeErrorMessage(error, properties, (path) => t('nodeErrorView.couldNotFindParameter', { path }));
  const context = error.context ?? {};
  const parameter = context.parameter ? (parameterDisplayPath(properties, context.parameter) ?? context.parameter) : null;
  const details: Array<[string, ReactNode]> = [];
  if (typeof error.timestamp === 'number') details.push([t('nodeErrorView.time'), formatTime(error.timestamp)]);
  if (error.httpCode !== undefined && error.httpCode !== null && error.httpCode !== '') details.push([t('nodeErrorView.httpCode'), String(error.httpCode)]);
  if (typeof context.itemIndex === 'number') details.push([t('nodeErrorView.itemIndex'), String(context.itemIndex)]);
  if (typeof context.runIndex === 'number') details.push([t('nodeErrorView.runIndex'), String(context.runIndex)]);
  if (parameter) details.push([t('nodeErrorView.inParameter'), parameter]);

  const hasCause = error.cause !== undefined && error.cause !== null;
  const causeFits = hasCause && fitsDisplay(error.cause);
  const opened = details.length > 0 ? ['details'] : [];

  return (
    <Stack gap="sm" className={classes.errorCard} data-test-id="node-error-view">
      <Stack gap={4}>
        <Text className={classes.errorMessage} data-test-id="node-error-message">
          {t('nodeErrorView.errorMessage', { message })}
        </Text>
        {error.description ? (
          <Text size="sm" data-test-id="node-error-description">
            {error.description}
          </Text>
        ) : null}
      </Stack>
      <Accordion multiple variant="contained" defaultValue={opened}>
        {details.length > 0 ? (
          <Accordion.Item value="details">
            <Accordion.Control>{t('nodeErrorView.details')}</Accordion.Control>
            <Accordion.Panel>
              <Table withRowBorders={false} verticalSpacing={4} data-test-id="node-error-details">
                <Table.Tbody>
                  {details.map(([label, value]) => (
                    <Table.Tr key={label}>
                      <Table.Td w={200}>
                        <Text size="sm" c="dimmed">
                          {label}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{value}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Accordion.Panel>
          </Accordion.Item>
        ) : null}
        {hasCause ? (
          <Accordion.Item value="cause">
            <Accordion.Control>{t('nodeErrorView.cause')}</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <Text size="xs" c="dimmed" fs="italic">
                  {t('nodeErrorView.dataBelowMayContain')}
                </Text>
                {causeFits ? (
                  <div className={classes.causeTree}>
                    <div className={classes.copyMenu} style={{ top: 6, right: 10 }}>
                      <Tooltip label={t('nodeErrorView.copyToClipboard')} withinPortal>
                        <ActionIcon
                          variant="default"
                          size="sm"
                          aria-label={t('nodeErrorView.copyToClipboard')}
                          data-test-id="node-error-copy-cause"
                          onClick={() => void copyText(JSON.stringify(error.cause, null, 2), t('nodeErrorView.showMessage.title'))}
                        >
                          <IconCopy size={14} />
                        </ActionIcon>
                      </Tooltip>
                    </div>
                    <JsonTree value={error.cause} depth={ERROR_CAUSE_DEPTH} testId="node-error-cause" />
                  </div>
                ) : (
                  <Alert color="yellow" variant="light" data-test-id="node-error-cause-too-large">
                    {t('nodeErrorView.theErrorCauseIsTooLargeToBeDisplayed')}
                  </Alert>
                )}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ) : null}
        {error.stack ? (
          <Accordion.Item value="stack">
            <Accordion.Control>{t('nodeErrorView.stack')}</Accordion.Control>
            <Accordion.Panel>
              <pre className={classes.stack} data-test-id="node-error-stack">
                {error.stack}
              </pre>
            </Accordion.Panel>
          </Accordion.Item>
        ) : null}
      </Accordion>
    </Stack>
  );
}
