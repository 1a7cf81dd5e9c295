import { Alert, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isCustomApiCall, isParameterShown, nodeParametersWithDefaults, shownCredentialTypes, type ParameterChange } from '@/core/parameters';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { WorkflowNode } from '@/core/workflow/types';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { NodeCredentials } from './NodeCredentials';
import { ParameterList } from './ParameterList';
import { ParametersContext, type ParametersContextValue } from './ParametersContext';

/**
 * The parameters tab: the node's credentials (after a credential-type select when the node has
 * one, else at the top) and its parameters as the type description declares them. Every edit is
 * reported as a ParameterChange; in read-only mode all inputs are disabled.
 */
export function NodeParameters({ node, type, onChange }: { node: WorkflowNode; type: NodeTypeDescription; onChange: (change: ParameterChange) => void }) {
  const { t } = useTranslation();
  const { readOnly } = useNdv();
  const root = useMemo(() => nodeParametersWithDefaults(type, node.parameters, node.typeVersion), [type, node.parameters, node.typeVersion]);
  const context = useMemo<ParametersContextValue>(() => ({ node, type, root, readOnly, onChange }), [node, type, root, readOnly, onChange]);
  // Parameters marked isNodeSetting (Edit Fields' Duplicate Item) live in the settings tab.
  const properties = (type.properties ?? []).filter((property) => property.isNodeSetting !== true);
  const display = { values: root, root, version: node.typeVersion };
  const credentials = shownCredentialTypes(node, type, root);
  const anyShown = properties.some((property) => property.type !== 'notice' && isParameterShown(property, display));
  const selectIndex = properties.findIndex((property) => property.type === 'credentialsSelect' && isParameterShown(property, display));
  const before = selectIndex >= 0 ? properties.slice(0, selectIndex + 1) : [];
  const after = selectIndex >= 0 ? properties.slice(selectIndex + 1) : properties;

  return (
    <ParametersContext.Provider value={context}>
      <Stack gap="sm" data-test-id="parameter-list">
        {isCustomApiCall(root) ? (
          <Alert variant="light" color="blue" p="xs" icon={<IconInfoCircle size={16} />} data-test-id="custom-api-call-notice">
            {t('parameters.customApiCall', { nodeTypeDisplayName: type.displayName })}
          </Alert>
        ) : null}
        {before.length > 0 ? <ParameterList properties={before} values={root} path="parameters" /> : null}
        <NodeCredentials shown={credentials} />
        <ParameterList properties={after} values={root} path="parameters" />
        {!anyShown && credentials.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="md" data-test-id="node-no-parameters">
            {t('parameters.noParameters')}
          </Text>
        ) : null}
      </Stack>
    </ParametersContext.Provider>
  );
}
