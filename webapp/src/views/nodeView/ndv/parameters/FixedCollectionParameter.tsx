import { Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { clone, levelValues } from '@/core/parameters';
import type { NodeProperty, NodePropertyOption } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue } from '@/core/workflow/types';
import { AddMenu } from './AddMenu';
import { moved } from './editorValues';
import { ItemActions } from './ItemActions';
import { ParameterLabel } from './ParameterLabel';
import { ParameterList } from './ParameterList';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

function groupProperties(group: NodePropertyOption): NodeProperty[] {
  return Array.isArray(group.values) ? (group.values as NodeProperty[]) : [];
}

/** A new group entry with every value at its default (n8n's FixedCollectionParameter). */
function newEntry(group: NodePropertyOption): JsonObject {
  const entry: JsonObject = {};
  for (const property of groupProperties(group)) {
    if (property.type === 'fixedCollection' && property.typeOptions?.multipleValues === true) entry[property.name] = {};
    else if (property.typeOptions?.multipleValues === true) entry[property.name] = Array.isArray(property.default) ? clone(property.default) : [];
    else entry[property.name] = clone(property.default) ?? null;
  }
  return entry;
}

/**
 * A fixed collection: groups of values (each group's own parameters), repeatable and, with
 * typeOptions.sortable, movable when typeOptions.multipleValues is set.
 */
export function FixedCollectionParameter({ property, value, path }: { property: NodeProperty; value: JsonValue | undefined; path: string }) {
  const { t } = useTranslation();
  const { readOnly, onChange } = useParameters();
  const multiple = property.typeOptions?.multipleValues === true;
  const sortable = multiple && property.typeOptions?.sortable === true;
  const groups = (property.options ?? []).filter((group) => Array.isArray(group.values));
  const values = levelValues(value);
  const present = groups.filter((group) => values[group.name] !== undefined);
  const addable = multiple ? groups : groups.filter((group) => values[group.name] === undefined);
  const showGroupLabels = groups.length > 1;

  const add = (name: string) => {
    const group = groups.find((candidate) => candidate.name === name);
    if (!group) return;
    if (!multiple) return onChange({ path: `${path}.${name}`, value: newEntry(group) });
    const items = values[name];
    onChange({ path: `${path}.${name}[${Array.isArray(items) ? items.length : 0}]`, value: newEntry(group) });
  };
  const remove = (name: string, index?: number) => {
    const items = values[name];
    const onlyOne = !Array.isArray(items) || items.length <= 1;
    onChange({ path: index === undefined || onlyOne ? `${path}.${name}` : `${path}.${name}[${index}]`, value: undefined });
  };

  return (
    <div className={classes.item} data-test-id={`fixed-collection-${property.name}`} data-name={property.name}>
      <div className={classes.labelRow}>
        <ParameterLabel property={property} />
      </div>
      <Stack gap="xs" className={classes.nested}>
        {present.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('parameters.currentlyNoItemsExist')}
          </Text>
        ) : null}
        {present.map((group) => {
          const groupValue = values[group.name];
          const label = showGroupLabels ? <div className={classes.groupLabel}>{group.displayName ?? group.name}</div> : null;
          if (!multiple) {
            return (
              <Fragment key={group.name}>
                {label}
                <ItemActions onDelete={readOnly ? undefined : () => remove(group.name)}>
                  <ParameterList properties={groupProperties(group)} values={levelValues(groupValue)} path={`${path}.${group.name}`} />
                </ItemActions>
              </Fragment>
            );
          }
          const items = Array.isArray(groupValue) ? groupValue : [];
          const setItems = (next: JsonValue[]) => onChange({ path: `${path}.${group.name}`, value: next });
          return (
            <Stack key={group.name} gap="xs" data-test-id="fixed-collection-group">
              {label}
              {items.map((item, index) => (
                <ItemActions
                  key={index}
                  onDelete={readOnly ? undefined : () => remove(group.name, index)}
                  onMoveUp={readOnly || !sortable || index === 0 ? undefined : () => setItems(moved(items, index, index - 1))}
                  onMoveDown={readOnly || !sortable || index === items.length - 1 ? undefined : () => setItems(moved(items, index, index + 1))}
                >
                  <ParameterList properties={groupProperties(group)} values={levelValues(item)} path={`${path}.${group.name}[${index}]`} />
                </ItemActions>
              ))}
            </Stack>
          );
        })}
        {readOnly ? null : (
          <AddMenu
            label={typeof property.placeholder === 'string' && property.placeholder !== '' ? property.placeholder : t('parameters.chooseOptionToAdd')}
            choices={addable.map((group) => ({ value: group.name, label: group.displayName ?? group.name }))}
            onPick={add}
            testId="fixed-collection-add"
          />
        )}
      </Stack>
    </div>
  );
}
