import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { clone, isParameterShown, levelValues } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { AddMenu } from './AddMenu';
import { ParameterLabel } from './ParameterLabel';
import { ParameterList } from './ParameterList';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

/** The value a collection option starts with when added (n8n's CollectionParameter). */
function initialValue(option: NodeProperty): JsonValue {
  if (option.typeOptions?.multipleValues === true) return option.type === 'fixedCollection' ? {} : [clone(option.default) ?? ''];
  return clone(option.default) ?? null;
}

/**
 * A collection: the options that are set, each removable, and an "Add Option" menu of the shown
 * options not set yet.
 */
export function CollectionParameter({ property, value, path, labelled = false }: { property: NodeProperty; value: JsonValue | undefined; path: string; labelled?: boolean }) {
  const { t } = useTranslation();
  const { root, node, readOnly, onChange } = useParameters();
  const values = levelValues(value);
  const options = (property.options ?? []) as NodeProperty[];
  const set = options.filter((option) => values[option.name] !== undefined);
  const seen = new Set<string>();
  const addable = options.filter((option) => {
    if (values[option.name] !== undefined || seen.has(option.name) || !isParameterShown(option, { values, root, version: node.typeVersion })) return false;
    seen.add(option.name);
    return true;
  });
  const add = (name: string) => {
    const option = addable.find((candidate) => candidate.name === name);
    if (option) onChange({ path: `${path}.${option.name}`, value: initialValue(option) });
  };
  return (
    <div className={classes.item} data-test-id="collection-parameter" data-name={property.name}>
      {labelled ? (
        <div className={classes.labelRow}>
          <ParameterLabel property={property} />
        </div>
      ) : null}
      <Stack gap="xs" className={classes.nested}>
        {set.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('parameters.noProperties')}
          </Text>
        ) : (
          <ParameterList properties={set} values={values} path={path} onDelete={(name) => onChange({ path: `${path}.${name}`, value: undefined })} />
        )}
        {readOnly ? null : (
          <AddMenu
            label={typeof property.placeholder === 'string' && property.placeholder !== '' ? property.placeholder : t('parameters.addOption')}
            choices={addable.map((option) => ({ value: option.name, label: option.displayName }))}
            onPick={add}
            testId="collection-parameter-add"
          />
        )}
      </Stack>
    </div>
  );
}
