import { Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCredentialTypes } from '@/api/credentials';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { credentialTypeMatches } from './editorValues';

/** A select of credential types (HTTP Request's predefined and generic authentication). */
export function CredentialsSelectParameter({ property, value, id, disabled, onValue }: { property: NodeProperty; value: JsonValue | undefined; id: string; disabled: boolean; onValue: (value: string) => void }) {
  const { t } = useTranslation();
  const { types, isLoading, error } = useCredentialTypes();
  const filters = Array.isArray(property.credentialTypes) ? property.credentialTypes.filter((filter): filter is string => typeof filter === 'string') : [];
  const data = types
    .filter((type) => credentialTypeMatches(type, filters))
    .map((type) => ({ value: type.name, label: type.displayName }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const current = typeof value === 'string' ? value : '';
  if (current !== '' && !data.some((item) => item.value === current)) data.unshift({ value: current, label: current });
  return (
    <>
      <Select
        id={id}
        size="sm"
        searchable
        data={data}
        value={current === '' ? null : current}
        placeholder={isLoading ? t('parameters.loadingOptions') : t('parameters.select')}
        disabled={disabled}
        allowDeselect={false}
        onChange={(next) => onValue(next ?? '')}
        comboboxProps={{ withinPortal: true }}
      />
      {error ? (
        <Text size="xs" c="dimmed" mt={4}>
          {t('parameters.credentialTypesError', { message: error })}
        </Text>
      ) : null}
    </>
  );
}
