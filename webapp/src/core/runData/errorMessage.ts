import type { NodeProperty, NodePropertyOption } from '@/core/workflow/nodeTypes';

/** The error of a run as the engine reports it (spec 001 §3 Error). */
export interface NodeErrorData {
  message: string;
  description?: string | null;
  httpCode?: string | number | null;
  /** Milliseconds since the epoch. */
  timestamp?: number;
  cause?: unknown;
  stack?: string;
  context?: {
    messageTemplate?: string;
    /** Dotted path of the parameter, e.g. `options.timeout` or `values.string[0].value`. */
    parameter?: string;
    itemIndex?: number;
    runIndex?: number;
    causeDetailed?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** The placeholder a messageTemplate carries for the parameter (n8n's `%%PARAMETER%%`). */
const PARAMETER_PLACEHOLDER = /%%PARAMETER%%|\{\{\s*parameter\s*\}\}/g;

type Described = { name: string; displayName?: string; options?: unknown; values?: unknown };

function describedList(value: unknown): Described[] | null {
  if (!Array.isArray(value)) return null;
  return value.filter((entry): entry is Described => typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string');
}

function resolvePath(list: readonly Described[], parts: readonly string[]): Described[] | null {
  const [head, ...rest] = parts;
  if (head === undefined) return [];
  const name = head.replace(/\[\d+\]$/, '');
  const found = list.find((entry) => entry.name === name);
  if (!found) return null;
  if (rest.length === 0) return [found];
  const children = describedList(found.options) ?? describedList(found.values);
  // A path that goes deeper than the description can follow still names its known part.
  if (!children) return [found];
  const tail = resolvePath(children, rest);
  return tail === null ? null : [found, ...tail];
}

/**
 * The display names along a parameter path joined with " > " (e.g. "Options > Timeout"),
 * following collection options and fixed-collection values; null when the path is not found.
 */
export function parameterDisplayPath(properties: readonly (NodeProperty | NodePropertyOption)[], path: string): string | null {
  const parts = path.split('.').filter((part) => part !== '');
  if (parts.length === 0) return null;
  const found = resolvePath(properties as Described[], parts);
  if (!found || found.length === 0) return null;
  return found.map((entry) => entry.displayName ?? entry.name).join(' > ');
}

/**
 * The message the error view shows after "Error:": the messageTemplate with the parameter's
 * display-name path filled in when there is one, else the plain message. `notFound` words a
 * parameter that the properties do not have.
 */
export function nodeErrorMessage(error: NodeErrorData, properties: readonly NodeProperty[], notFound: (path: string) => string): string {
  const template = error.context?.messageTemplate;
  if (!template) return error.message;
  const path = error.context?.parameter ?? '';
  const name = parameterDisplayPath(properties, path) ?? notFound(path);
  return template.replace(PARAMETER_PLACEHOLDER, () => name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a run's error into the error view's shape; null when there is none. */
export function asNodeError(value: unknown): NodeErrorData | null {
  if (!isRecord(value)) return null;
  const message = typeof value.message === 'string' ? value.message : '';
  return { ...value, message, context: isRecord(value.context) ? (value.context as NodeErrorData['context']) : undefined };
}
