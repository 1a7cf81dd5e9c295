import { Anchor, Text } from '@mantine/core';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { hasBinaryData } from '@/core/runData/binary';
import type { RunItem } from '@/core/runData/runs';
import { allItemsEmpty, cellContent, tableColumns } from '@/core/runData/table';
import classes from './runData.module.css';
import { endFieldDrag, startFieldDrag, useMappingSource } from './mappingSource';
import { useVirtualRange } from './useVirtualRange';

const ROW_HEIGHT = 33;
/** Pages with more rows than this (page size All) render only the rows in view. */
const VIRTUAL_FROM = 100;

function Cell({ json, column }: { json: Record<string, unknown>; column: string }) {
  const { t } = useTranslation();
  const content = cellContent(json, column);
  switch (content.kind) {
    case 'missing':
      return <td />;
    case 'text':
      return <td title={content.text}>{content.text}</td>;
    case 'json':
      return (
        <td title={content.text} className={classes.cellJson}>
          {content.text}
        </td>
      );
    default: {
      const label = { emptyString: 'runData.emptyString', null: 'runData.null', emptyArray: 'runData.emptyArray', emptyObject: 'runData.emptyObject' }[content.kind];
      return (
        <td>
          <span className={classes.cellLabel}>{t(label)}</span>
        </td>
      );
    }
  }
}

const Row = memo(function Row({ item, columns }: { item: RunItem; columns: readonly string[] }) {
  return (
    <tr>
      {columns.map((column) => (
        <Cell key={column} json={item.json} column={column} />
      ))}
    </tr>
  );
});

export interface RunDataTableProps {
  items: readonly RunItem[];
  onShowBinary?: () => void;
}

/**
 * One page of items as a table: a column per top-level key (union over the page, first-seen
 * order), nested values as compact JSON. Long pages render only the rows in view.
 */
export function RunDataTable({ items, onShowBinary }: RunDataTableProps) {
  const { t } = useTranslation();
  const columns = useMemo(() => tableColumns(items), [items]);
  const mapping = useMappingSource();
  const [windowed, setContainer] = useVirtualRange(items.length, ROW_HEIGHT, items.length > VIRTUAL_FROM);
  if (columns.length === 0 && allItemsEmpty(items)) {
    if (onShowBinary && hasBinaryData(items)) {
      return (
        <Text size="sm" c="dimmed" data-test-id="ndv-binary-only">
          {t('runData.switchToBinary.info')}{' '}
          <Anchor component="button" size="sm" onClick={onShowBinary}>
            {t('runData.switchToBinary.binary')}
          </Anchor>
        </Text>
      );
    }
    return (
      <Text size="sm" c="dimmed">
        {t('runData.emptyItemHint')}
      </Text>
    );
  }
  return (
    <div ref={setContainer} className={classes.scroll}>
      <table className={classes.table} data-test-id="ndv-data-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column}
                title={mapping ? t('runData.dragToMap', { name: column }) : column}
                draggable={mapping !== null}
                onDragStart={mapping ? (event) => startFieldDrag(event, mapping, [column]) : undefined}
                onDragEnd={mapping ? endFieldDrag : undefined}
                className={mapping ? classes.draggableField : undefined}
                data-test-id="ndv-table-header"
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {windowed.before > 0 ? <tr aria-hidden style={{ height: windowed.before }} /> : null}
          {items.slice(windowed.start, windowed.end).map((item, offset) => (
            <Row key={windowed.start + offset} item={item} columns={columns} />
          ))}
          {windowed.after > 0 ? <tr aria-hidden style={{ height: windowed.after }} /> : null}
        </tbody>
      </table>
    </div>
  );
}
