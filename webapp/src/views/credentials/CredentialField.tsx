import { NumberInput, PasswordInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isKeptSecret, isMissing, type CredentialProperty } from '@/core/credentials';
import type { JsonValue } from '@/core/workflow/types';

interface CredentialFieldProps {
  property: CredentialProperty;
  value: JsonValue | undefined;
  /** Show 'This field is required' even before the field was left (a save was attempted). */
  showRequired: boolean;
  onChange: (value: JsonValue) => void;
}

/**
 * One field of a credential type, generated from its property. A stored secret arrives as the
 * redaction marker: the field shows it as a masked placeholder and keeps the marker until typed over.
 * String values beginning with '=' are kept as expressions, as n8n allows.
 */
export function CredentialField({ property, value, showRequired, onChange }: CredentialFieldProps) {
  const { t } = useTranslation();
  const [blurred, setBlurred] = useState(false);
  const error = (blurred || showRequired) && isMissing(property, value) ? t('credentialEdit.fieldRequired') : undefined;
  const notes = [property.description, property.hint].filter((note): note is string => Boolean(note));
  const common = {
    label: property.displayName,
    description: notes.length > 0 ? notes.join(' ') : undefined,
    withAsterisk: property.required === true,
    error,
    onBlur: () => setBlurred(true),
    'data-test-id': 'credential-field',
    'data-name': property.name,
  };
  const inputWrapperOrder: Array<'label' | 'description' | 'input' | 'error'> = ['label', 'input', 'description', 'error'];

  if (property.type === 'boolean') {
    return <Switch label={property.displayName} description={common.description} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} data-test-id="credential-field" data-name={property.name} />;
  }
  if (property.type === 'options') {
    const data = (property.options ?? []).map((option) => ({ value: String(option.value), label: option.name }));
    return (
      <Select
        {...common}
        inputWrapperOrder={inputWrapperOrder}
        data={data}
        value={value === undefined || value === null ? null : String(value)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true, zIndex: 1000 }}
        onChange={(next) => {
          const option = property.options?.find((candidate) => String(candidate.value) === next);
          if (option) onChange(option.value as JsonValue);
        }}
      />
    );
  }
  if (property.type === 'number' && typeof value !== 'string') {
    return <NumberInput {...common} inputWrapperOrder={inputWrapperOrder} value={typeof value === 'number' ? value : ''} placeholder={property.placeholder} onChange={(next) => onChange(typeof next === 'number' ? next : '')} />;
  }
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (property.typeOptions?.password) {
    const kept = isKeptSecret(text);
    return (
      <PasswordInput
        {...common}
        inputWrapperOrder={inputWrapperOrder}
        value={kept ? '' : text}
        placeholder={kept ? '••••••••••••' : property.placeholder}
        autoComplete="new-password"
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  const rows = typeof property.typeOptions?.rows === 'number' ? property.typeOptions.rows : 0;
  if (rows > 1) {
    return <Textarea {...common} inputWrapperOrder={inputWrapperOrder} value={text} minRows={rows} autosize placeholder={property.placeholder} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
  return <TextInput {...common} inputWrapperOrder={inputWrapperOrder} value={text} placeholder={property.placeholder} autoComplete="off" onChange={(event) => onChange(event.currentTarget.value)} />;
}
