import { useParameterOptions, type ParameterOptionsState } from '@/api/parameterOptions';
import { getAt, hasRemoteOptions, parsePath } from '@/core/parameters';
import type { NodeProperty } from '@/core/workflow/nodeTypes';
import type { JsonValue } from '@/core/workflow/types';
import { useParameters } from './ParametersContext';

/**
 * The server-loaded options of a parameter with loadOptionsMethod or loadOptions (null request,
 * so nothing loads, for others). Reloads when credentials or a loadOptionsDependsOn value change.
 */
export function useRemoteChoices(property: NodeProperty, path: string): ParameterOptionsState | null {
  const { node, root } = useParameters();
  const remote = hasRemoteOptions(property);
  const options = property.typeOptions ?? {};
  const dependsOn = Array.isArray(options.loadOptionsDependsOn) ? options.loadOptionsDependsOn.filter((entry): entry is string => typeof entry === 'string') : [];
  const state = useParameterOptions(
    remote
      ? {
          nodeType: node.type,
          version: node.typeVersion,
          path,
          methodName: typeof options.loadOptionsMethod === 'string' ? options.loadOptionsMethod : undefined,
          loadOptions: options.loadOptions as JsonValue | undefined,
          parameters: root,
          credentials: node.credentials,
          dependencies: dependsOn.map((dependency) => JSON.stringify(getAt(root, parsePath(dependency.replace(/^\//, ''))) ?? null)).join('|'),
        }
      : null,
  );
  return remote ? state : null;
}
