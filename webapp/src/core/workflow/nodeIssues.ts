import { credentialReference, matchCredential, shownCredentialTypes, type KnownCredential } from '@/core/parameters/credentials';
import { parameterIssues } from '@/core/parameters/issues';
import { nodeParametersWithDefaults } from '@/core/parameters/nodeParameters';
import { displayParameter } from '@/core/parameters/visibility';
import { STICKY_NOTE_TYPE, storedVersion, type DisplayOptions, type NodeProperty, type NodeTypeDescription } from './nodeTypes';
import type { JsonObject, JsonValue, WorkflowNode } from './types';

/**
 * A problem that keeps a node from running (spec 001 §4 issue kinds). `parameter` is the path of
 * the value inside the node's parameters (`options.timeout`, `values.string[0].name`).
 */
export type NodeIssue =
  | { kind: 'typeUnknown' }
  | { kind: 'typeVersionUnknown'; version: number; known: number[] }
  | { kind: 'parameters'; parameter: string; displayName: string }
  | { kind: 'optionNotSupported'; parameter: string; displayName: string; value: string }
  | { kind: 'credentialTypeNotSelected'; parameter: string; displayName: string }
  | { kind: 'credentials'; credential: string }
  | { kind: 'credentialsNotFound'; credential: string; name: string }
  | { kind: 'credentialsAmbiguous'; credential: string; name: string }
  | { kind: 'execution'; message: string };

/**
 * Whether displayOptions show a parameter for the values of its level (see displayParameter):
 * `/`-rooted keys read `root` (the same values unless given), `@version` the type version.
 */
export function isDisplayed(
  options: DisplayOptions | undefined,
  values: Readonly<Record<string, JsonValue | undefined>>,
  version: number,
  root: Readonly<Record<string, JsonValue | undefined>> = values,
): boolean {
  return displayParameter(options, values, version, root);
}

/** Top-level parameter values with the type's defaults filled in. */
export function parameterValues(node: WorkflowNode, properties: readonly NodeProperty[]): Record<string, JsonValue | undefined> {
  const values: Record<string, JsonValue | undefined> = {};
  for (const property of properties) values[property.name] = property.default;
  return { ...values, ...node.parameters };
}

function credentialIssues(node: WorkflowNode, type: NodeTypeDescription, values: Readonly<Record<string, JsonValue | undefined>>, known?: readonly KnownCredential[]): NodeIssue[] {
  const issues: NodeIssue[] = [];
  for (const credential of shownCredentialTypes(node, type, values)) {
    const reference = credentialReference(node.credentials?.[credential.name]);
    if (!reference) {
      if (credential.required) issues.push({ kind: 'credentials', credential: credential.name });
      continue;
    }
    if (!known) continue;
    const match = matchCredential(reference, known, credential.name);
    if (match.status === 'notFound') issues.push({ kind: 'credentialsNotFound', credential: credential.name, name: reference.name });
    if (match.status === 'ambiguous') issues.push({ kind: 'credentialsAmbiguous', credential: credential.name, name: reference.name });
  }
  return issues;
}

interface ParameterCheck {
  /** Top-level values with defaults, as the credential checks read them. */
  values: Readonly<Record<string, JsonValue | undefined>>;
  issues: readonly NodeIssue[];
}

/**
 * Parameter checks by type description, then by parameters object and type version, then by the
 * parameters' content. Descriptions and parameters are never changed in place (edits make new
 * objects), so a check stays valid while both live: a large workflow is checked once when its
 * descriptions arrive, not again on every credential list, selection or edit elsewhere in the
 * graph, and nodes with the same settings (fresh nodes of one type) share one check.
 */
interface TypeChecks {
  byObject: WeakMap<JsonObject, Map<number, ParameterCheck>>;
  byContent: Map<string, ParameterCheck>;
}

const parameterChecks = new WeakMap<NodeTypeDescription, TypeChecks>();

/** Content keys kept per type; past this the oldest go (an editing session makes one per change). */
const CONTENT_CHECKS_KEPT = 1000;

function checkParameters(type: NodeTypeDescription, parameters: JsonObject, version: number): ParameterCheck {
  const properties = type.properties ?? [];
  if (properties.length === 0) return { values: parameters, issues: [] };
  let checks = parameterChecks.get(type);
  if (!checks) {
    checks = { byObject: new WeakMap(), byContent: new Map() };
    parameterChecks.set(type, checks);
  }
  let byVersion = checks.byObject.get(parameters);
  if (!byVersion) {
    byVersion = new Map();
    checks.byObject.set(parameters, byVersion);
  }
  const known = byVersion.get(version);
  if (known) return known;
  const contentKey = `${version}\u0000${JSON.stringify(parameters)}`;
  const same = checks.byContent.get(contentKey);
  if (same) {
    byVersion.set(version, same);
    return same;
  }
  const values = nodeParametersWithDefaults(type, parameters, version);
  const issues = parameterIssues(properties, values, version).map((issue): NodeIssue => {
    switch (issue.kind) {
      case 'required':
        return { kind: 'parameters', parameter: issue.path, displayName: issue.displayName };
      case 'optionNotSupported':
        return { kind: 'optionNotSupported', parameter: issue.path, displayName: issue.displayName, value: issue.value };
      case 'credentialTypeNotSelected':
        return { kind: 'credentialTypeNotSelected', parameter: issue.path, displayName: issue.displayName };
    }
  });
  const check = { values, issues };
  byVersion.set(version, check);
  checks.byContent.set(contentKey, check);
  if (checks.byContent.size > CONTENT_CHECKS_KEPT) {
    const oldest = checks.byContent.keys().next().value;
    if (oldest !== undefined) checks.byContent.delete(oldest);
  }
  return check;
}

/**
 * The issues of a node against its full type description (with properties): an unknown type;
 * on every nesting level, shown required parameters that are empty, option values that are not in
 * the list and empty credential-type selects; required credentials that are shown but not set,
 * and, when the known credentials are given, references that match none or several of them
 * (spec 001 §5). A disabled node has none. The parameter part is computed once per description,
 * parameters object and version.
 */
export function nodeIssues(node: WorkflowNode, type: NodeTypeDescription | undefined, credentials?: readonly KnownCredential[]): NodeIssue[] {
  if (node.disabled) return [];
  if (!type) return [{ kind: 'typeUnknown' }];
  const { values, issues } = checkParameters(type, node.parameters, node.typeVersion);
  return [...issues, ...credentialIssues(node, type, values, credentials)];
}

/**
 * The issues of every node of a graph, by node name (nodes without issues left out). Types come
 * from the list index; parameter and credential checks need the full descriptions, and are
 * skipped until those are loaded. Credential references are checked against `credentials` when
 * given.
 */
export function workflowIssues(
  nodes: readonly WorkflowNode[],
  types: { forNode(node: WorkflowNode): NodeTypeDescription | undefined; versions?(name: string): number[] },
  details: { forNode(node: WorkflowNode): NodeTypeDescription | undefined } | null,
  credentials?: readonly KnownCredential[],
): Map<string, NodeIssue[]> {
  const out = new Map<string, NodeIssue[]>();
  for (const node of nodes) {
    if (node.type === STICKY_NOTE_TYPE) continue;
    const listed = types.forNode(node);
    const issues = !listed
      ? node.disabled
        ? []
        : [unknownTypeIssue(node, types.versions?.(node.type) ?? [])]
      : nodeIssues(node, details?.forNode(node) ?? { ...listed, properties: [], credentials: [] }, details ? credentials : undefined);
    if (issues.length > 0) out.set(node.name, issues);
  }
  return out;
}

/**
 * The issue of a node no description covers: its type is unknown, or (when the type has other
 * versions, `known`) its version is, as for a node from a newer n8n.
 */
export function unknownTypeIssue(node: WorkflowNode, known: readonly number[]): NodeIssue {
  return known.length === 0 ? { kind: 'typeUnknown' } : { kind: 'typeVersionUnknown', version: storedVersion(node), known: [...known] };
}

/** A stable one-line form of an issue, for JSON-only canvas data: the kind, then its details. */
export function issueKey(issue: NodeIssue): string {
  switch (issue.kind) {
    case 'typeUnknown':
      return 'typeUnknown';
    case 'typeVersionUnknown':
      return `typeVersionUnknown:${issue.version}:${issue.known.join(', ')}`;
    case 'parameters':
      return `parameters:${issue.displayName}`;
    case 'optionNotSupported':
      return `optionNotSupported:${issue.value}`;
    case 'credentialTypeNotSelected':
      return `credentialTypeNotSelected:${issue.displayName}`;
    case 'credentials':
      return `credentials:${issue.credential}`;
    case 'credentialsNotFound':
      return `credentialsNotFound:${issue.credential}:${issue.name}`;
    case 'credentialsAmbiguous':
      return `credentialsAmbiguous:${issue.credential}:${issue.name}`;
    case 'execution':
      return `execution:${issue.message}`;
  }
}

// Kept in its own small module so the page can use it before the editor's code is loaded.
export { nodeTypeKey } from './typeKey';
