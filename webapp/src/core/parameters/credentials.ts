import type { NodeCredentialDescription, NodeTypeDescription } from '@/core/workflow/nodeTypes';
import type { JsonValue, NodeCredential, WorkflowNode } from '@/core/workflow/types';
import { displayParameter } from './visibility';

/** A stored credential as GET /rest/credentials lists it (without its data). */
export interface KnownCredential {
  id: string;
  name: string;
  type: string;
}

/** How a node's credential reference relates to the known credentials. */
export type CredentialMatch = { status: 'found'; credential: KnownCredential } | { status: 'notFound' } | { status: 'ambiguous' };

/** A stored reference; a plain string (older workflows) is a name without id. */
export function credentialReference(value: unknown): NodeCredential | undefined {
  if (typeof value === 'string') return { id: null, name: value };
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, name } = value as { id?: unknown; name?: unknown };
  if (typeof name !== 'string') return undefined;
  return { id: typeof id === 'string' || typeof id === 'number' ? String(id) : null, name };
}

/**
 * Matches a reference against the known credentials of its type (spec 001 §4): by id, else by
 * name when exactly one credential has that name.
 */
export function matchCredential(reference: NodeCredential, known: readonly KnownCredential[], credentialType: string): CredentialMatch {
  const ofType = known.filter((credential) => credential.type === credentialType);
  if (reference.id) {
    const byId = ofType.find((credential) => credential.id === reference.id);
    if (byId) return { status: 'found', credential: byId };
  }
  const byName = ofType.filter((credential) => credential.name === reference.name);
  if (byName.length === 1 && byName[0]) return { status: 'found', credential: byName[0] };
  return byName.length > 1 ? { status: 'ambiguous' } : { status: 'notFound' };
}

/**
 * The credential types a node shows selects for, given its parameter values with defaults: the
 * type's credentials whose displayOptions match, plus the type chosen in a shown credentialsSelect
 * parameter (generic or predefined authentication), which is then required.
 */
export function shownCredentialTypes(node: WorkflowNode, type: NodeTypeDescription, values: Readonly<Record<string, JsonValue | undefined>>): NodeCredentialDescription[] {
  const shown = (type.credentials ?? []).filter((credential) => displayParameter(credential.displayOptions, values, node.typeVersion));
  for (const property of type.properties ?? []) {
    if (property.type !== 'credentialsSelect' || !displayParameter(property.displayOptions, values, node.typeVersion)) continue;
    const chosen = values[property.name];
    if (typeof chosen === 'string' && chosen !== '' && !shown.some((credential) => credential.name === chosen)) shown.push({ name: chosen, required: true });
  }
  return shown;
}

/**
 * Credential references of loaded nodes as the editor keeps them (spec 001 §4): a plain string
 * becomes `{id: null, name}`; with the known credentials, a reference matched by id or by a
 * unique name takes that credential's id and current name. Unmatched references stay as they are.
 */
export function matchNodeCredentials(nodes: readonly WorkflowNode[], known: readonly KnownCredential[] | null): WorkflowNode[] {
  return nodes.map((node) => {
    if (!node.credentials) return node;
    const credentials: Record<string, NodeCredential> = {};
    for (const [credentialType, value] of Object.entries(node.credentials as Record<string, unknown>)) {
      const reference = credentialReference(value);
      if (!reference) continue;
      const match = known ? matchCredential(reference, known, credentialType) : null;
      credentials[credentialType] = match?.status === 'found' ? { id: match.credential.id, name: match.credential.name } : reference;
    }
    return { ...node, credentials };
  });
}
