import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { NODE_SETTINGS, nodeParametersWithDefaults, type ParameterChange } from '@/core/parameters';
import type { NodeProperty, NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue, WorkflowNode } from '@/core/workflow/types';
import { useNdv } from '@/views/nodeView/ndv/NdvContext';
import { ParameterList } from './ParameterList';
import { ParametersContext, type ParametersContextValue } from './ParametersContext';

/** The node's settings fields with their defaults filled in. */
function settingValues(node: WorkflowNode): JsonObject {
  const fields = node as unknown as Record<string, JsonValue | undefined>;
  return Object.fromEntries(NODE_SETTINGS.map((setting) => [setting.name, fields[setting.name] ?? setting.default ?? null]));
}

/**
 * The settings tab (n8n 0.186 NodeSettings): notes, note in flow, color, always output data,
 * execute once, retry on fail with max tries and wait between tries, continue on fail. Values
 * equal to their defaults are not stored.
 */
export function NodeSettings({ node, type, onChange }: { node: WorkflowNode; type: NodeTypeDescription; onChange: (change: ParameterChange) => void }) {
  const { t } = useTranslation();
  const { readOnly } = useNdv();
  const values = useMemo(() => settingValues(node), [node]);
  const properties = useMemo<NodeProperty[]>(
    () => NODE_SETTINGS.map((setting) => ({ ...setting, displayName: t(`nodeSettings.${setting.name}.displayName`), description: t(`nodeSettings.${setting.name}.description`) })),
    [t],
  );
  const context = useMemo<ParametersContextValue>(() => ({ node, type, root: values, readOnly, onChange }), [node, type, values, readOnly, onChange]);
  // The type's own parameters marked isNodeSetting are shown here, after the common settings.
  const typeSettings = useMemo(() => (type.properties ?? []).filter((property) => property.isNodeSetting === true), [type]);
  const parameterRoot = useMemo(() => nodeParametersWithDefaults(type, node.parameters, node.typeVersion), [type, node.parameters, node.typeVersion]);
  const parameterContext = useMemo<ParametersContextValue>(() => ({ node, type, root: parameterRoot, readOnly, onChange }), [node, type, parameterRoot, readOnly, onChange]);
  return (
    <div data-test-id="node-settings-list">
      <ParametersContext.Provider value={context}>
        <ParameterList properties={properties} values={values} path="" />
      </ParametersContext.Provider>
      {typeSettings.length > 0 ? (
        <ParametersContext.Provider value={parameterContext}>
          <div data-test-id="node-type-settings" style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
            <ParameterList properties={typeSettings} values={parameterRoot} path="parameters" />
          </div>
        </ParametersContext.Provider>
      ) : null}
    </div>
  );
}
