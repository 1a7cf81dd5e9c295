import { ActionIcon, Alert, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { useParameters } from './ParametersContext';
import { textOf } from './editorValues';
import { fieldValue, mapperRows, mapperSchema, setMapperField, toMapper, type MapperValue } from './resourceValues';

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * n8n 1.x's resource mapper: the mapping mode (map each field by hand or automatically) and, when
 * mapping by hand, one row per field with its value. Fields come from the stored schema and the
 * stored values; other keys of the value (matchingColumns, schema, …) are kept as they are.
 */
export function ResourceMapperParameter({ property, value, disabled, onValue }: { property: NodeProperty; value: JsonValue | undefined; disabled: boolean; onValue: (value: MapperValue) => void }) {
  const { t } = useTranslation();
  const { type } = useParameters();
  const [newField, setNewField] = useState('');
  const options = (property.typeOptions?.resourceMapper ?? {}) as Record<string, unknown>;
  const words = (options.fieldWords ?? {}) as Record<string, unknown>;
  const singular = typeof words.singular === 'string' ? words.singular : 'column';
  const plural = typeof words.plural === 'string' ? words.plural : 'columns';
  const mapper = toMapper(value, property);
  const rows = mapperRows(mapper);
  const removed = mapperSchema(mapper).filter((field) => field.removed && !(field.id in (mapper.value ?? {})));
  const autoMap = options.supportAutoMap !== false;

  return (
    <Stack gap="xs" data-test-id="resource-mapper" data-mode={mapper.mappingMode}>
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
                <TextInput
                  style={{ flex: 1 }}
                  size="sm"
                  label={field.displayName + (field.required ? ' *' : '')}
                  value={current === undefined ? '' : textOf(current)}
                  disabled={disabled}
                  placeholder={field.type}
                  onChange={(event) => onValue(setMapperField(mapper, field.id, fieldValue(event.currentTarget.value, field.type)))}
                />
                {field.required || disabled ? null : (
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
