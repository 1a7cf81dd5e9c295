import { ActionIcon, Menu, ScrollArea, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconCircleDot, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parentSelections, selectionExpression } from '@/core/expressions/variablePaths';
import { buildVariableTree, filterVariables, type VariableOption } from '@/core/expressions/variableTree';
import { useEditorState } from '@/views/nodeView/EditorContext';
import classes from './expression.module.css';

interface VariableSelectorProps {
  nodeName: string;
  /** The parameter being edited, left out of the current node's parameters. */
  path: string;
  onSelect: (expression: string) => void;
  disabled: boolean;
}

/**
 * The variable selector of the expression editor (n8n 0.186): the data and parameters an
 * expression of the node can use, built from the workflow and its run data, with a filter.
 */
export function VariableSelector({ nodeName, path, onSelect, disabled }: VariableSelectorProps) {
  const { t } = useTranslation();
  const graph = useEditorState((s) => s.graph);
  const runData = useEditorState((s) => s.execution.runData);
  const meta = useEditorState((s) => s.meta);
  const [filter, setFilter] = useState('');
  const tree = useMemo(
    () => buildVariableTree({ nodeName, graph, runData, path, workflow: { id: meta.id, name: meta.name, active: meta.active } }),
    [nodeName, graph, runData, path, meta.id, meta.name, meta.active],
  );
  const shown = useMemo(() => filterVariables(tree, filter), [tree, filter]);
  return (
    <Stack gap="xs" data-test-id="variable-selector">
      <TextInput
        size="xs"
        placeholder={t('variableSelector.variableFilter')}
        aria-label={t('variableSelector.variableFilter')}
        leftSection={<IconSearch size={14} />}
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        data-test-id="variable-selector-filter"
      />
      <ScrollArea className={classes.selector} type="auto" offsetScrollbars>
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed" p="xs">
            {t('variableSelector.noMatch')}
          </Text>
        ) : (
          shown.map((option) => <VariableItem key={option.key} option={option} depth={0} expandAll={filter.trim() !== ''} onSelect={onSelect} disabled={disabled} />)
        )}
      </ScrollArea>
    </Stack>
  );
}

interface VariableItemProps {
  option: VariableOption;
  depth: number;
  expandAll: boolean;
  onSelect: (expression: string) => void;
  disabled: boolean;
}

function VariableItem({ option, depth, expandAll, onSelect, disabled }: VariableItemProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(depth === 0);
  const name = option.label ? t(`variableSelector.${option.label}`) : option.name;
  const { expression, options } = option;

  if (options === undefined) {
    return (
      <UnstyledButton
        className={classes.leaf}
        disabled={disabled || expression === undefined}
        onClick={() => expression !== undefined && onSelect(expression)}
        title={expression}
        data-test-id="variable-selector-item"
        data-expression={expression}
      >
        <Text component="span" display="block" size="sm" fw={600} truncate>
          {expression === undefined ? name : `${name}:`}
        </Text>
        {expression !== undefined && (option.value !== undefined || isDataEntry(option)) ? (
          <Text component="span" display="block" size="xs" className={classes.leafValue}>
            {option.value ?? t('variableSelector.empty')}
          </Text>
        ) : null}
      </UnstyledButton>
    );
  }

  const expanded = expandAll || open;
  const Chevron = expanded ? IconChevronDown : IconChevronRight;
  return (
    <div>
      <div className={classes.row}>
        <UnstyledButton onClick={() => setOpen(!expanded)} aria-expanded={expanded} style={{ display: 'flex', alignItems: 'center', gap: 4, flex: 1, minWidth: 0 }} title={expression}>
          <Chevron size={14} />
          <Text component="span" display="block" size="sm" className={classes.categoryName} truncate>
            {name}
          </Text>
        </UnstyledButton>
        {expression !== undefined ? <ParentSelect option={option} expression={expression} onSelect={onSelect} disabled={disabled} /> : null}
      </div>
      {expanded ? (
        <div className={classes.children}>
          {options.map((child) => (
            <VariableItem key={child.key} option={child} depth={depth + 1} expandAll={expandAll} onSelect={onSelect} disabled={disabled} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** Data and parameter entries show their value, or that it is empty; $now and $today show none. */
function isDataEntry(option: VariableOption): boolean {
  return option.label === undefined && !option.name.startsWith('$');
}

/** Inserts a whole object or array: its raw value, keys, values or length. */
function ParentSelect({ option, expression, onSelect, disabled }: { option: VariableOption; expression: string; onSelect: (expression: string) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const { dataType } = option;
  if (!dataType) {
    return (
      <ActionIcon variant="subtle" color="gray" size="sm" disabled={disabled} onClick={() => onSelect(expression)} aria-label={t('variableSelector.selectItem')} title={t('variableSelector.selectItem')}>
        <IconCircleDot size={14} />
      </ActionIcon>
    );
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="sm" disabled={disabled} aria-label={t('variableSelector.selectItem')} title={t('variableSelector.selectItem')}>
          <IconCircleDot size={14} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {parentSelections(dataType).map((selection) => (
          <Menu.Item key={selection} onClick={() => onSelect(selectionExpression(expression, selection, dataType))}>
            {t(`variableSelector.${selection}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
