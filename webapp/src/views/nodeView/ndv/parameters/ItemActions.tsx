import { ActionIcon, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './parameters.module.css';

function Action({ label, onClick, icon, testId }: { label: string; onClick: () => void; icon: ReactNode; testId: string }) {
  return (
    <Tooltip label={label} withArrow openDelay={300}>
      <ActionIcon variant="subtle" color="gray" size="sm" onClick={onClick} aria-label={label} data-test-id={testId}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** Content with delete and, when given, move up and move down buttons beside it. */
export function ItemActions({
  children,
  onDelete,
  onMoveUp,
  onMoveDown,
  deleteLabel,
}: {
  children: ReactNode;
  onDelete?: () => void;
  onMoveUp?: () => void;
  onMoveDown?: () => void;
  deleteLabel?: string;
}) {
  const { t } = useTranslation();
  if (!onDelete && !onMoveUp && !onMoveDown) return <>{children}</>;
  return (
    <div className={classes.deletable}>
      <div>{children}</div>
      <div className={classes.itemActions}>
        {onDelete ? <Action label={deleteLabel ?? t('parameters.deleteItem')} onClick={onDelete} icon={<IconTrash size={14} />} testId="parameter-item-delete" /> : null}
        {onMoveUp ? <Action label={t('parameters.moveUp')} onClick={onMoveUp} icon={<IconArrowUp size={14} />} testId="parameter-item-move-up" /> : null}
        {onMoveDown ? <Action label={t('parameters.moveDown')} onClick={onMoveDown} icon={<IconArrowDown size={14} />} testId="parameter-item-move-down" /> : null}
      </div>
    </div>
  );
}
