import { ActionIcon, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useContext, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCredentials, useCredentialTypes, type CredentialSummary } from '@/api/credentials';
import { openModal, type EditCredentialProps } from '@/components/modalHost';
import { credentialReference, matchCredential } from '@/core/parameters';
import { HTTP_REQUEST_NODE_TYPE, type NodeCredentialDescription } from '@/core/workflow/nodeTypes';
import type { JsonObject, WorkflowNode } from '@/core/workflow/types';
import { EditorContext } from '@/views/nodeView/EditorContext';
import { ParameterIssues } from './ParameterIssues';
import { useParameters } from './ParametersContext';
import classes from './parameters.module.css';

const UNMATCHED = '\u0000unmatched';
const CREATE_NEW = '\u0000createNew';

/**
 * What the credential modal needs to know about where it was opened: the workflow's node types
 * (testers named by testedBy) and this node when it is an HTTP Request with a fixed URL, which
 * tests the generic credential types against that URL.
 */
function testContext(node: WorkflowNode, root: JsonObject, nodes: readonly WorkflowNode[]): Pick<EditCredentialProps, 'workflowNodeTypes' | 'tester'> {
  const workflowNodeTypes = [...new Set([node.type, ...nodes.map((candidate) => candidate.type)])];
  const url = root.url;
  if (node.type !== HTTP_REQUEST_NODE_TYPE || typeof url !== 'string' || url === '' || url.startsWith('=')) return { workflowNodeTypes };
  // HTTP Request names its method requestMethod (v1, v2) or method (later versions).
  const chosen = root.requestMethod ?? root.method;
  const method = typeof chosen === 'string' && !chosen.startsWith('=') ? chosen : 'GET';
  return { workflowNodeTypes, tester: { nodeType: HTTP_REQUEST_NODE_TYPE, url, method } };
}

function CredentialSelect({ description, displayName, known, loaded }: { description: NodeCredentialDescription; displayName: string; known: readonly CredentialSummary[]; loaded: boolean }) {
  const { t } = useTranslation();
  const { node, root, readOnly, onChange } = useParameters();
  const editor = useContext(EditorContext);
  const id = useId();
  const path = `credentials.${description.name}`;
  const reference = credentialReference(node.credentials?.[description.name]);
  const ofType = known.filter((credential) => credential.type === description.name);
  const match = reference ? matchCredential(reference, known, description.name) : undefined;
  const data = ofType.map((credential) => ({ value: credential.id, label: credential.name }));
  if (!readOnly) data.push({ value: CREATE_NEW, label: t('parameters.createNewCredential') });
  let value: string | null = null;
  if (match?.status === 'found') value = match.credential.id;
  else if (reference) {
    data.unshift({ value: UNMATCHED, label: reference.name });
    value = UNMATCHED;
  }

  const context = () => testContext(node, root, editor?.store.getState().graph.nodes ?? []);
  // A credential saved from the modal becomes this node's; deleting the selected one clears it.
  const select = (saved: { id: string; name: string; type: string }) => {
    if (saved.type === description.name) onChange({ path, value: { id: saved.id, name: saved.name } });
  };
  const deselect = (deletedId: string) => {
    const current = credentialReference(node.credentials?.[description.name]);
    if (current && (current.id === deletedId || (match?.status === 'found' && match.credential.id === deletedId))) onChange({ path, value: undefined });
  };

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
      <Group gap={6} wrap="nowrap" align="center">
      <Select
        style={{ flex: 1 }}
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
          if (next === CREATE_NEW) {
            openModal('editCredential', { ...context(), mode: 'new', activeId: description.name, onSaved: select, onDeleted: deselect });
            return;
          }
          const credential = ofType.find((candidate) => candidate.id === next);
          onChange({ path, value: credential ? { id: credential.id, name: credential.name } : undefined });
        }}
        data-test-id="node-credentials-select"
      />
      {match?.status === 'found' ? (
        <Tooltip label={t('parameters.editCredential')} withinPortal>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('parameters.editCredential')}
            onClick={() => openModal('editCredential', { ...context(), mode: 'edit', activeId: match.credential.id, onSaved: select, onDeleted: deselect })}
            data-test-id="node-credentials-edit"
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      </Group>
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
