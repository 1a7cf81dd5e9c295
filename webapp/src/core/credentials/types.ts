import type { DisplayOptions, NodePropertyOption } from '@/core/workflow/nodeTypes';
import type { JsonObject, JsonValue } from '@/core/workflow/types';

/** What GET /credentials/:id?includeData=true answers for a stored secret; sent back unchanged it keeps the secret. */
export const BLANK_SECRET = '__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6';

/** Spec 002 §9. */
export const CREDENTIAL_NAME_MAX_LENGTH = 64;

/** The name a credential takes when its name is emptied (spec 002 §5). */
export const UNTITLED_CREDENTIAL_NAME = 'Untitled Credential';

/** The generated name when no better one exists (spec 002 §4). */
export const DEFAULT_CREDENTIAL_NAME = 'Unnamed credential';

/** One field of a credential type (n8n's INodeProperties as credential types use them). */
export interface CredentialProperty {
  name: string;
  displayName: string;
  type: string;
  default?: JsonValue;
  required?: boolean;
  typeOptions?: { password?: boolean; [key: string]: unknown };
  options?: NodePropertyOption[];
  displayOptions?: DisplayOptions;
  description?: string;
  hint?: string;
  placeholder?: string;
}

/** A credential type as GET /credential-types lists it. */
export interface CredentialType {
  name: string;
  displayName: string;
  icon?: string;
  documentationUrl?: string;
  extends?: string[];
  properties: CredentialProperty[];
  genericAuth?: boolean;
  test?: unknown;
  testedBy?: string[];
}

/** A stored credential with its (redacted) data, as GET /credentials/:id?includeData=true answers. */
export interface CredentialWithData {
  id: string;
  name: string;
  type: string;
  data?: JsonObject;
  nodesAccess: Array<{ nodeType: string; date?: string }>;
  createdAt: string;
  updatedAt: string;
}

/** What POST /credentials and PATCH /credentials/:id take. */
export interface CredentialPayload {
  name: string;
  type: string;
  nodesAccess: Array<{ nodeType: string }>;
  data: JsonObject;
}
