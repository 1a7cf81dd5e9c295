import { Select, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCredentials, useCredentialTypes, type CredentialSummary } from '@/api/credentials';
import { credentialReference, matchCredential } from '@/core/parameters';
import type { NodeCredentialDescription } from '@/core/workflow/nodeTypes';
import { ParameterIssues } from './ParameterIssues';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

const UNMATCHED = '\u0000unmatched';

function CredentialSelect({ description, displayName, known, loaded }: { description: NodeCredentialDescription; displayName: string; known: readonly CredentialSummary[]; loaded: boolean }) {
  const { t } = useTranslation();
  const { node, readOnly, onChange } = useParameters();
  const id = useId();
  const path = `credentials.${description.name}`;
  const reference = credentialReference(node.credentials?.[description.name]);
  const ofType = known.filter((credential) => credential.type === description.name);
  const match = reference ? matchCredential(reference, known, description.name) : undefined;
  const data = ofType.map((credential) => ({ value: credential.id, label: credential.name }));
  let value: string | null = null;
  if (match?.status === 'found') value = match.credential.id;
  else if (reference) {
    data.unshift({ value: UNMATCHED, label: reference.name });
    value = UNMATCHED;
  }

  const issues: string[] = [];
  if (!reference && description.required) issues.push(t('parameters.credentialsNotSet', { type: displayName }));
  if (reference && loaded && match?.status === 'notFound') issues.push(t('parameters.credentialsDoNotExist', { name: reference.name, type: displayName }), t('parameters.credentialsDoNotExist.hint'));
  if (reference && loaded && match?.status === 'ambiguous') issues.push(t('parameters.credentialsNotIdentified', { name: reference.name, type: displayName }), t('parameters.credentialsNotIdentified.hint'));

  return (
    <div className={classes.item} data-test-id="node-credentials" data-name={description.name}>
      <div className={classes.labelRow}>
        <label className={classes.label} htmlFor={id} data-test-id="credentials-label">
          {t('parameters.credentialFor', { credentialType: displayName })}
          {description.required ? <span className={classes.required}>*</span> : null}
        </label>
      </div>
      <Select
        id={id}
        size="sm"
        data={data}
        value={value}
        placeholder={t('parameters.selectCredential')}
        nothingFoundMessage={t('parameters.noCredentials')}
        disabled={readOnly}
        searchable
        clearable={!description.required}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
        onChange={(next) => {
          if (next === UNMATCHED) return;
          const credential = ofType.find((candidate) => candidate.id === next);
          onChange({ path, value: credential ? { id: credential.id, name: credential.name } : undefined });
        }}
        data-test-id="node-credentials-select"
      />
      <ParameterIssues issues={issues} />
    </div>
  );
}

/** One credential select per shown credential type, with the user's credentials of that type. */
export function NodeCredentials({ shown }: { shown: readonly NodeCredentialDescription[] }) {
  const { t } = useTranslation();
  const { credentials, isLoading, error } = useCredentials();
  const { types } = useCredentialTypes();
  if (shown.length === 0) return null;
  const displayName = (name: string) => types.find((type) => type.name === name)?.displayName ?? name;
  return (
    <Stack gap="sm">
      {shown.map((description) => (
        <CredentialSelect key={description.name} description={description} displayName={displayName(description.name)} known={credentials} loaded={!isLoading && !error} />
      ))}
      {error ? (
        <Text size="xs" c="dimmed" data-test-id="node-credentials-error">
          {t('parameters.credentialsError', { message: error })}
        </Text>
      ) : null}
    </Stack>
  );
}
