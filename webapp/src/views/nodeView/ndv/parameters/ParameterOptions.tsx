import { ActionIcon, Group, Menu, SegmentedControl } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './parameters.module.css';

/** The Fixed/Expression switch and the actions menu (reset, refresh list) beside a label. */
export function ParameterOptions({
  expression,
  canBeExpression,
  onModeChange,
  onReset,
  onRefresh,
}: {
  expression: boolean;
  canBeExpression: boolean;
  onModeChange: (expression: boolean) => void;
  onReset: () => void;
  onRefresh?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" className={classes.options} data-active={expression || undefined} data-test-id="parameter-options">
      {canBeExpression ? (
        <SegmentedControl
          size="xs"
          radius="sm"
          value={expression ? 'expression' : 'fixed'}
          onChange={(mode) => onModeChange(mode === 'expression')}
          data={[
            { value: 'fixed', label: t('parameters.fixed') },
            { value: 'expression', label: t('parameters.expression') },
          ]}
          data-test-id="parameter-mode"
        />
      ) : null}
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={t('parameters.parameterOptions')} data-test-id="parameter-options-menu">
            <IconDots size={14} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={onReset} data-test-id="parameter-reset-value">
            {t('parameters.resetValue')}
          </Menu.Item>
          {onRefresh ? (
            <Menu.Item onClick={onRefresh} data-test-id="parameter-refresh-list">
              {t('parameters.refreshList')}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
