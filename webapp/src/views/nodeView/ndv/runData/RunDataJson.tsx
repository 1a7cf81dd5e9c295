import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useMemo, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldPathOfJsonView } from '@/core/expressions/mapping';
import { itemPathExpression, JSON_VIEW_DEPTH, parameterPathExpression, valueAtPath } from '@/core/runData/jsonLines';
import type { RunItem } from '@/core/runData/runs';
import { copyText } from './copyText';
import { JsonTree } from './JsonTree';
import { endFieldDrag, startFieldDrag, useMappingSource } from './mappingSource';
import classes from './runData.module.css';

export interface RunDataJsonProps {
  items: readonly RunItem[];
  /** Index of the first shown item among all items of the output. */
  offset: number;
  /** Node the data belongs to, for the copied expressions. */
  nodeName: string;
}

/**
 * One page of items as a JSON tree of their `json` parts, ten levels expanded, with n8n's copy
 * menu: the selected item path, parameter path, or the selected value (all shown data when
 * nothing is selected).
 */
export function RunDataJson({ items, offset, nodeName }: RunDataJsonProps) {
  const { t } = useTranslation();
  const data = useMemo(() => items.map((item) => item.json), [items]);
  const [selection, setSelection] = useState<{ data: unknown; path: string } | null>(null);
  const selectedPath = selection && selection.data === data ? selection.path : null;
  const hasItemSelection = selectedPath !== null && selectedPath !== '';
  const mapping = useMappingSource();
  const onKeyDragStart = useMemo(
    () =>
      mapping
        ? (path: string, event: DragEvent) => {
            const field = fieldPathOfJsonView(path);
            if (field) startFieldDrag(event, mapping, field);
            else event.preventDefault();
          }
        : undefined,
    [mapping],
  );

  const copyValue = () => {
    const value = selectedPath ? valueAtPath(data, selectedPath) : data;
    void copyText(typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? '', t('runData.copyValue.toast'));
  };
  const copyItemPath = () => {
    const expression = selectedPath ? itemPathExpression(nodeName, selectedPath, offset) : null;
    if (expression) void copyText(expression, t('runData.copyItemPath.toast'));
  };
  const copyParameterPath = () => {
    const expression = selectedPath ? parameterPathExpression(nodeName, selectedPath) : null;
    if (expression) void copyText(expression, t('runData.copyParameterPath.toast'));
  };

  return (
    <>
      <div className={classes.copyMenu}>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label={t('runData.copyToClipboard')} withinPortal>
              <ActionIcon variant="default" size="md" aria-label={t('runData.copyToClipboard')} data-test-id="ndv-json-copy">
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={copyItemPath} disabled={!hasItemSelection} title={hasItemSelection ? undefined : t('runData.copyDisabled')} data-test-id="ndv-copy-item-path">
              {t('runData.copyItemPath')}
            </Menu.Item>
            <Menu.Item onClick={copyParameterPath} disabled={!hasItemSelection} title={hasItemSelection ? undefined : t('runData.copyDisabled')} data-test-id="ndv-copy-parameter-path">
              {t('runData.copyParameterPath')}
            </Menu.Item>
            <Menu.Item onClick={copyValue} data-test-id="ndv-copy-value">
              {hasItemSelection ? t('runData.copyValue') : t('runData.copyValue.all')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </div>
      <JsonTree
        value={data}
        depth={JSON_VIEW_DEPTH}
        selectedPath={selectedPath}
        onSelect={(path) => setSelection({ data, path })}
        testId="ndv-json"
        onKeyDragStart={onKeyDragStart}
        onKeyDragEnd={mapping ? endFieldDrag : undefined}
      />
    </>
  );
}
