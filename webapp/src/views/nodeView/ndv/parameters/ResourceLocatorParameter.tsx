import { ActionIcon, Group, Select, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListSearch, type ListSearchEntry } from '@/api/listSearch';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { InlineExpression } from '@/views/nodeView/ndv/expression/InlineExpression';
import { useParameters } from './ParametersContext';
import { locatorModes, pickListEntry, switchLocatorMode, toLocator, typedLocator, type LocatorValue } from './resourceValues';
import classes from './parameters.module.css';

const keyOf = (value: JsonValue | undefined) => JSON.stringify(value ?? null);
const SEARCH_DEBOUNCE_MS = 300;

/**
 * n8n 1.x's resource locator: a mode select (From list, By ID, By URL, …) and the value input of
 * the mode. The list mode searches the node's searchListMethod on the server; the stored value
 * keeps n8n's shape {__rl, value, mode, cachedResultName?, cachedResultUrl?}.
 */
export function ResourceLocatorParameter({
  property,
  value,
  id,
  path,
  disabled,
  onValue,
  onOpenExpression,
}: {
  property: NodeProperty;
  value: JsonValue | undefined;
  id: string;
  path: string;
  disabled: boolean;
  onValue: (value: LocatorValue) => void;
  onOpenExpression: () => void;
}) {
  const { t } = useTranslation();
  const modes = locatorModes(property);
  const locator = toLocator(value, modes);
  const mode = modes.find((entry) => entry.name === locator.mode);
  const text = typeof locator.value === 'string' ? locator.value : locator.value === null ? '' : String(locator.value);
  const expression = text.startsWith('=');

  let input;
  if (expression) {
    input = <InlineExpression value={text} path={path} onOpen={onOpenExpression} />;
  } else if (mode?.type === 'list') {
    input = <LocatorList property={property} path={path} id={id} locator={locator} placeholder={mode.placeholder} methodName={mode.searchListMethod} disabled={disabled} onValue={onValue} />;
  } else {
    input = (
      <TextInput
        id={id}
        size="sm"
        value={text}
        placeholder={mode?.placeholder}
        disabled={disabled}
        onChange={(event) => onValue(typedLocator(locator.mode, event.currentTarget.value))}
        data-test-id="rlc-input"
      />
    );
  }

  return (
    <div data-test-id="resource-locator" data-mode={locator.mode}>
      <Group gap={0} wrap="nowrap" className={classes.locator}>
        {modes.length > 1 ? (
          <Select
            className={classes.locatorMode}
            size="sm"
            w={110}
            allowDeselect={false}
            disabled={disabled}
            value={locator.mode}
            data={modes.map((entry) => ({ value: entry.name, label: entry.displayName }))}
            onChange={(next) => next && onValue(switchLocatorMode(locator, next))}
            aria-label={t('parameters.locatorMode')}
            data-test-id="rlc-mode-selector"
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
        <div className={classes.locatorInput}>{input}</div>
      </Group>
      {mode?.hint && !expression ? (
        <Text size="xs" c="dimmed" mt={4} data-test-id="rlc-hint">
          {mode.hint}
        </Text>
      ) : null}
    </div>
  );
}

/** The list mode: a searchable select filled from the server, the picked entry's link beside it. */
function LocatorList({
  property,
  path,
  id,
  locator,
  placeholder,
  methodName,
  disabled,
  onValue,
}: {
  property: NodeProperty;
  path: string;
  id: string;
  locator: LocatorValue;
  placeholder?: string;
  methodName?: string;
  disabled: boolean;
  onValue: (value: LocatorValue) => void;
}) {
  const { t } = useTranslation();
  const { node, root } = useParameters();
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const selectedLabel = locator.cachedResultName ?? (locator.value === '' || locator.value === null ? '' : String(locator.value));
  // The select shows the picked label in its search box: that is no search.
  const [filter] = useDebouncedValue(opened && search !== selectedLabel ? search : '', SEARCH_DEBOUNCE_MS);
  const list = useListSearch(
    methodName && opened
      ? { nodeType: node.type, version: node.typeVersion, path, methodName, parameters: root, credentials: node.credentials, filter }
      : null,
  );
  const entries: ListSearchEntry[] = [...list.entries];
  const selected = locator.value === '' || locator.value === null ? null : keyOf(locator.value);
  if (selected !== null && !entries.some((entry) => keyOf(entry.value) === selected)) {
    entries.unshift({ name: selectedLabel, value: locator.value, url: locator.cachedResultUrl });
  }
  const link = locator.cachedResultUrl;
  return (
    <Group gap={4} wrap="nowrap">
      <Select
        id={id}
        style={{ flex: 1 }}
        size="sm"
        searchable
        disabled={disabled}
        placeholder={placeholder ?? property.displayName}
        value={selected}
        data={entries.map((entry) => ({ value: keyOf(entry.value), label: entry.name }))}
        filter={({ options }) => options}
        searchValue={search}
        onSearchChange={setSearch}
        onDropdownOpen={() => setOpened(true)}
        onDropdownClose={() => setOpened(false)}
        onChange={(next) => {
          const entry = entries.find((candidate) => keyOf(candidate.value) === next);
          if (entry) onValue(pickListEntry(entry));
        }}
        nothingFoundMessage={list.isLoading ? t('parameters.loadingOptions') : list.error ? t('parameters.loadOptionsError', { message: list.error }) : t('parameters.noResults')}
        data-test-id="rlc-list"
        comboboxProps={{ withinPortal: true }}
      />
      {link ? (
        <Tooltip label={t('parameters.openResource')} withArrow>
          <ActionIcon component="a" href={link} target="_blank" rel="noopener" variant="subtle" color="gray" size="sm" aria-label={t('parameters.openResource')} data-test-id="rlc-open">
            <IconExternalLink size={14} />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </Group>
  );
}
