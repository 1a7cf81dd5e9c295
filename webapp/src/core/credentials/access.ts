import { HTTP_REQUEST_NODE_TYPE, type NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { CredentialType } from './types';

/**
 * The node types that can use a credential type, each once, sorted by display name: those that
 * declare it, and HTTP Request for the types it offers as generic authentication.
 */
export function nodeTypesWithAccess(type: CredentialType, nodeTypes: readonly NodeTypeDescription[]): Array<{ name: string; displayName: string }> {
  const found = new Map<string, string>();
  for (const nodeType of nodeTypes) {
    const declares = (nodeType.credentials ?? []).some((credential) => credential.name === type.name);
    if (declares || (type.genericAuth && nodeType.name === HTTP_REQUEST_NODE_TYPE)) found.set(nodeType.name, nodeType.displayName);
  }
  return [...found].map(([name, displayName]) => ({ name, displayName })).sort((a, b) => a.displayName.localeCompare(b.displayName));
}
