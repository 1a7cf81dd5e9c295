import { ActionIcon, Alert, Box, Group, Loader, MultiSelect, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMappingFields } from '@/api/mappingFields';
import { getAt, parsePath } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { useParameters } from './ParametersContext';
import { textOf } from './editorValues';
import { applyFetchedFields, fieldValue, mapperRows, mapperSchema, setMapperField, setMatchingColumns, toMapper, type MapperField, type MapperValue } from './resourceValues';

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The modes whose rows are found by matching columns. */
const MATCHING_MODES = new Set(['update', 'upsert']);

/**
 * The fields the node's resourceMapperMethod answers for the current parameters, kept in the
 * value's schema (n8n stores them there). Nothing loads until every parameter the mapper depends
 * on has a value (a table to read the columns of).
 */
function useFetchedFields(property: NodeProperty, path: string, mapper: MapperValue, disabled: boolean, onValue: (value: MapperValue) => void) {
  const { node, root, type } = useParameters();
  const typeOptions = property.typeOptions ?? {};
  const options = (typeOptions.resourceMapper ?? {}) as Record<string, unknown>;
  const methodName = typeof options.resourceMapperMethod === 'string' ? options.resourceMapperMethod : undefined;
  const dependsOn = Array.isArray(typeOptions.loadOptionsDependsOn) ? typeOptions.loadOptionsDependsOn.filter((entry): entry is string => typeof entry === 'string') : [];
  const values = dependsOn.map((dependency) => getAt(root, parsePath(dependency.replace(/^\//, ''))) ?? null);
  const ready = methodName !== undefined && values.every((entry) => entry !== null && entry !== '');
  const state = useMappingFields(
    ready && methodName
      ? { nodeType: node.type, version: node.typeVersion, path, methodName, parameters: root, credentials: node.credentials, dependencies: JSON.stringify(values) }
      : null,
  );
  const fields = state.fields;
  useEffect(() => {
    if (!fields || disabled) return;
    const next = applyFetchedFields(mapper, fields);
    if (next !== mapper) onValue(next);
  }, [fields, mapper, disabled, onValue]);
  if (!methodName) return null;
  // The parameter still to set before the fields can load, by its display name.
  const missing = dependsOn.find((_, index) => values[index] === null || values[index] === '');
  const missingName = missing === undefined ? undefined : missing.replace(/^\//, '').split('.')[0];
  const waitingFor = missingName === undefined ? undefined : (type.properties?.find((entry) => entry.name === missingName)?.displayName ?? missingName);
  return { ...state, waitingFor };
}

/** One field's value: a choice for options fields, text for the rest. */
function FieldInput({ field, value, disabled, onValue }: { field: MapperField; value: JsonValue | undefined; disabled: boolean; onValue: (value: JsonValue | undefined) => void }) {
  const label = field.displayName + (field.required ? ' *' : '');
  if (field.type === 'options' && field.options && (value === undefined || typeof value === 'string') && !textOf(value ?? '').startsWith('=')) {
    return (
      <Select
        style={{ flex: 1 }}
        size="sm"
        label={label}
        value={typeof value === 'string' && value !== '' ? value : null}
        disabled={disabled}
        placeholder={field.type}
        data={field.options.map((option) => ({ value: String(option.value), label: option.name }))}
        onChange={(next) => onValue(next ?? '')}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }
  return (
    <TextInput
      style={{ flex: 1 }}
      size="sm"
      label={label}
      value={value === undefined ? '' : textOf(value)}
      disabled={disabled}
      placeholder={field.type}
      onChange={(event) => onValue(fieldValue(event.currentTarget.value, field.type))}
    />
  );
}

/**
 * n8n 1.x's resource mapper: the mapping mode (map each field by hand or automatically), the
 * columns to match rows on (update, upsert) and, when mapping by hand, one row per field with
 * its value. Fields come from the node (resourceMapperMethod) when it names one, else from the
 * stored schema and values; other keys of the value are kept as they are.
 */
export function ResourceMapperParameter({ property, path, value, disabled, onValue }: { property: NodeProperty; path: string; value: JsonValue | undefined; disabled: boolean; onValue: (value: MapperValue) => void }) {
  const { t } = useTranslation();
  const { type } = useParameters();
  const [newField, setNewField] = useState('');
  const options = (property.typeOptions?.resourceMapper ?? {}) as Record<string, unknown>;
  const words = (options.fieldWords ?? {}) as Record<string, unknown>;
  const singular = typeof words.singular === 'string' ? words.singular : 'column';
  const plural = typeof words.plural === 'string' ? words.plural : 'columns';
  const mapper = toMapper(value, property);
  const fetched = useFetchedFields(property, path, mapper, disabled, onValue);
  const rows = mapperRows(mapper);
  const schema = mapperSchema(mapper);
  const removed = schema.filter((field) => field.removed && !(field.id in (mapper.value ?? {})));
  const autoMap = options.supportAutoMap !== false;
  const mode = typeof options.mode === 'string' ? options.mode : 'add';
  const matchable = schema.filter((field) => field.canBeUsedToMatch);
  const matching = (Array.isArray(mapper.matchingColumns) ? mapper.matchingColumns : []).filter((id): id is string => typeof id === 'string');
  const matchLabel = t('parameters.mapper.matchOn', { words: capitalized(options.multiKeyMatch === true ? plural : singular) });

  if (fetched?.waitingFor !== undefined) {
    return (
      <Text size="sm" c="dimmed" data-test-id="mapper-waiting">
        {t('parameters.mapper.waiting', { parameter: fetched.waitingFor, words: plural })}
      </Text>
    );
  }
  if (fetched && !fetched.fields && (fetched.isLoading || fetched.error)) {
    return (
      <Stack gap="xs" data-test-id="resource-mapper" data-mode={mapper.mappingMode}>
        {fetched.error ? (
          <Alert variant="light" color="red" data-test-id="mapper-fields-error">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm">{t('parameters.mapper.loadError', { words: plural, message: fetched.error })}</Text>
              <ActionIcon variant="subtle" color="gray" onClick={fetched.reload} aria-label={t('parameters.mapper.refresh', { words: plural })}>
                <IconRefresh size={14} />
              </ActionIcon>
            </Group>
          </Alert>
        ) : (
          <Group gap="xs" data-test-id="mapper-fields-loading">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('parameters.mapper.loading', { words: plural })}
            </Text>
          </Group>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="xs" data-test-id="resource-mapper" data-mode={mapper.mappingMode}>
      {MATCHING_MODES.has(mode) && matchable.length > 0 ? (
        options.multiKeyMatch === true ? (
          <MultiSelect
            size="sm"
            label={matchLabel}
            disabled={disabled}
            value={matching}
            data={matchable.map((field) => ({ value: field.id, label: field.displayName }))}
            onChange={(next) => onValue(setMatchingColumns(mapper, next))}
            data-test-id="mapper-matching-columns"
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Select
            size="sm"
            label={matchLabel}
            allowDeselect={false}
            disabled={disabled}
            value={matching[0] ?? null}
            data={matchable.map((field) => ({ value: field.id, label: field.displayName }))}
            onChange={(next) => next && onValue(setMatchingColumns(mapper, [next]))}
            data-test-id="mapper-matching-columns"
            comboboxProps={{ withinPortal: true }}
          />
        )
      ) : null}
      {autoMap ? (
        <Select
          size="sm"
          label={t('parameters.mapper.mode', { word: capitalized(singular) })}
          allowDeselect={false}
          disabled={disabled}
          value={mapper.mappingMode}
          data={[
            { value: 'defineBelow', label: t('parameters.mapper.defineBelow', { word: capitalized(singular) }) },
            { value: 'autoMapInputData', label: t('parameters.mapper.autoMap') },
          ]}
          onChange={(next) => next && onValue({ ...mapper, mappingMode: next })}
          data-test-id="mapping-mode-select"
          comboboxProps={{ withinPortal: true }}
        />
      ) : null}
      {mapper.mappingMode === 'autoMapInputData' ? (
        <Alert variant="light" color="gray" data-test-id="mapper-automap-hint">
          {t('parameters.mapper.autoMapHint', { words: plural, service: type.displayName })}
        </Alert>
      ) : (
        <Stack gap={6} data-test-id="mapping-fields-container">
          {options.valuesLabel === property.displayName ? null : (
            <Text size="sm" fw={600}>
              {typeof options.valuesLabel === 'string' ? options.valuesLabel : t('parameters.mapper.valuesToSend')}
            </Text>
          )}
          {rows.length === 0 ? (
            <Text size="xs" c="dimmed">
              {t('parameters.mapper.noFields', { words: plural })}
            </Text>
          ) : null}
          {rows.map((field) => {
            const current = mapper.value?.[field.id];
            return (
              <Group key={field.id} gap="xs" wrap="nowrap" align="flex-end" data-test-id="mapping-field" data-field={field.id}>
                <FieldInput field={field} value={current} disabled={disabled} onValue={(next) => onValue(setMapperField(mapper, field.id, next ?? ''))} />
                {disabled ? null : field.required ? (
                  // Keeps required inputs as wide as the others, which have a remove button.
                  <Box w={28} style={{ flexShrink: 0 }} aria-hidden />
                ) : (
                  <Tooltip label={t('parameters.mapper.removeField', { word: singular })} withArrow>
                    <ActionIcon variant="subtle" color="gray" mb={4} onClick={() => onValue(setMapperField(mapper, field.id, undefined))} aria-label={t('parameters.mapper.removeField', { word: singular })}>
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            );
          })}
          {disabled ? null : removed.length > 0 ? (
            <Select
              size="sm"
              placeholder={t('parameters.mapper.addField', { word: singular })}
              value={null}
              data={removed.map((field) => ({ value: field.id, label: field.displayName }))}
              onChange={(next) => next && onValue(setMapperField(mapper, next, ''))}
              data-test-id="mapper-add-field"
              comboboxProps={{ withinPortal: true }}
            />
          ) : mapperSchema(mapper).length === 0 ? (
            <TextInput
              size="sm"
              placeholder={t('parameters.mapper.addField', { word: singular })}
              value={newField}
              onChange={(event) => setNewField(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' || newField.trim() === '') return;
                onValue(setMapperField(mapper, newField.trim(), ''));
                setNewField('');
              }}
              data-test-id="mapper-new-field"
            />
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}
