import type { JsonObject, JsonValue } from './types';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Rewrites expression references to a renamed node: `$node["Old"]`, `$node['Old']`, `$node.Old`,
 * `$("Old")`, `$items("Old")`. Only expression strings (starting with `=`) change.
 */
export function renameInExpression(expression: string, from: string, to: string): string {
  if (!expression.startsWith('=') || !expression.includes(from)) return expression;
  const name = escapeRegExp(from);
  let out = expression.replace(new RegExp(`(\\$node\\[\\s*)(["'])${name}\\2(\\s*\\])`, 'g'), (_m, a: string, q: string, b: string) => `${a}${q}${to}${q}${b}`);
  out = out.replace(new RegExp(`(\\$(?:items)?\\(\\s*)(["'])${name}\\2`, 'g'), (_m, a: string, q: string) => `${a}${q}${to}${q}`);
  if (/^[A-Za-z_$][\w$]*$/.test(from)) {
    const replacement = /^[A-Za-z_$][\w$]*$/.test(to) ? `$node.${to}` : `$node["${to}"]`;
    out = out.replace(new RegExp(`\\$node\\.${name}(?![\\w$])`, 'g'), replacement);
  }
  return out;
}

function renameValue(value: JsonValue, from: string, to: string): JsonValue {
  if (typeof value === 'string') return renameInExpression(value, from, to);
  if (Array.isArray(value)) {
    const mapped = value.map((v) => renameValue(v, from, to));
    return mapped.some((v, i) => v !== value[i]) ? mapped : value;
  }
  if (value !== null && typeof value === 'object') return renameNodeReferences(value, from, to);
  return value;
}

/** The parameters with references to the node renamed; the same object when nothing changed. */
export function renameNodeReferences(parameters: JsonObject, from: string, to: string): JsonObject {
  let changed = false;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(parameters)) {
    const next = renameValue(value, from, to);
    if (next !== value) changed = true;
    out[key] = next;
  }
  return changed ? out : parameters;
}
