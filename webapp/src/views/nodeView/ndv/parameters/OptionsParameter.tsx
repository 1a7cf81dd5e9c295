import { Loader, MultiSelect, Select, Stack, Text, type ComboboxItem } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import type { OptionChoice } from './editorValues';

const keyOf = (value: JsonValue | undefined) => JSON.stringify(value ?? null);

/**
 * Single (options) and multiple (multiOptions) selects. Values are kept as their JSON so numbers
 * and booleans survive; a stored value that is not among the choices still shows (its issue is
 * reported under the input).
 */
export function OptionsParameter({
  property,
  value,
  id,
  disabled,
  choices,
  loading,
  onValue,
}: {
  property: NodeProperty;
  value: JsonValue | undefined;
  id: string;
  disabled: boolean;
  choices: readonly OptionChoice[];
  loading: boolean;
  onValue: (value: JsonValue) => void;
}) {
  const { t } = useTranslation();
  const byKey = new Map(choices.map((choice) => [keyOf(choice.value), choice]));
  const data: ComboboxItem[] = choices.map((choice) => ({ value: keyOf(choice.value), label: choice.name }));
  const addMissing = (item: JsonValue) => {
    const key = keyOf(item);
    if (!byKey.has(key) && item !== '' && item !== null) data.push({ value: key, label: typeof item === 'string' ? item : key });
  };
  const renderOption = ({ option }: { option: ComboboxItem }) => {
    const description = byKey.get(option.value)?.description;
    return (
      <Stack gap={0}>
        <Text size="sm">{option.label}</Text>
        {description ? (
          <Text size="xs" c="dimmed">
            {description.replace(/<[^>]*>/g, '')}
          </Text>
        ) : null}
      </Stack>
    );
  };
  const common = {
    id,
    size: 'sm' as const,
    disabled: disabled || loading,
    searchable: true,
    nothingFoundMessage: t('parameters.noProperties'),
    placeholder: loading ? t('parameters.loadingOptions') : typeof property.placeholder === 'string' ? property.placeholder : t('parameters.select'),
    rightSection: loading ? <Loader size={14} /> : undefined,
    renderOption,
    comboboxProps: { withinPortal: true },
  };
  const fromKey = (key: string): JsonValue => byKey.get(key)?.value ?? (JSON.parse(key) as JsonValue);

  if (property.type === 'multiOptions') {
    const selected = Array.isArray(value) ? value : [];
    selected.forEach(addMissing);
    return <MultiSelect {...common} data={data} value={selected.map(keyOf)} onChange={(keys) => onValue(keys.map(fromKey))} />;
  }
  if (value !== undefined) addMissing(value);
  return <Select {...common} data={data} value={value === undefined || (value === '' && !byKey.has(keyOf(''))) ? null : keyOf(value)} allowDeselect={false} onChange={(key) => onValue(key === null ? '' : fromKey(key))} />;
}
