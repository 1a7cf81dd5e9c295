import { currentAppPaths } from '@/core/basePath';
import type { CredentialType } from '@/core/credentials';
import { useNodeTypes } from '@/api/nodeTypes';
import { NodeIcon } from '@/components/NodeIcon';

/** A credential type's icon (spec 002 §2): `node:` borrows a node's icon, `file:` is served by the server. */
export function CredentialIcon({ type, size = 20 }: { type: CredentialType | undefined; size?: number }) {
  const { index } = useNodeTypes();
  const icon = type?.icon ?? '';
  if (type && icon.startsWith('file:')) {
    return <img src={`${currentAppPaths().restBase}/credential-icon/${encodeURIComponent(type.name)}`} width={size} height={size} alt="" style={{ objectFit: 'contain' }} />;
  }
  const nodeType = icon.startsWith('node:') ? index.get(icon.slice('node:'.length)) : undefined;
  return <NodeIcon type={nodeType} size={size} fallbackLabel={type?.displayName ?? '?'} />;
}
