/**
 * Completions of n8n's special variables in code and expressions, framework-free: given the text
 * before the cursor, which options apply and where the typed word starts.
 */

/** What the editor knows of the data around the node being edited. */
export interface CompletionData {
  /** Top-level field names of the node's input item, in the item's order. */
  inputFields: readonly string[];
  /** Other nodes of the workflow, upstream ones first. */
  nodeNames: readonly string[];
  /** Top-level output field names of nodes that ran, by node name. */
  nodeFields: Readonly<Record<string, readonly string[]>>;
}

export type CompletionKind = 'variable' | 'function' | 'method' | 'property' | 'field' | 'node';

export interface CompletionOption {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Text inserted instead of the label. */
  apply?: string;
}

export interface CompletionResult {
  /** Offset in the given text where the replaced word starts. */
  from: number;
  options: CompletionOption[];
}

const ROOT: readonly CompletionOption[] = [
  { label: '$json', kind: 'variable', detail: 'The JSON of the current item' },
  { label: '$binary', kind: 'variable', detail: 'The binary data of the current item' },
  { label: '$input', kind: 'variable', detail: 'The input items of this node' },
  { label: '$node', kind: 'variable', detail: 'Data of another node: $node["Name"]' },
  { label: '$()', kind: 'function', detail: 'Data of another node: $("Name")', apply: '$("' },
  { label: '$items()', kind: 'function', detail: 'The items of a node: $items("Name")', apply: '$items("' },
  { label: '$now', kind: 'variable', detail: 'The current time (Luxon DateTime)' },
  { label: '$today', kind: 'variable', detail: 'Midnight today (Luxon DateTime)' },
  { label: '$parameter', kind: 'variable', detail: "The node's parameters" },
  { label: '$workflow', kind: 'variable', detail: 'id, name and active of the workflow' },
  { label: '$execution', kind: 'variable', detail: 'id, mode and resumeUrl of the execution' },
  { label: '$prevNode', kind: 'variable', detail: 'The node the input came from' },
  { label: '$itemIndex', kind: 'variable', detail: 'The index of the current item' },
  { label: '$runIndex', kind: 'variable', detail: 'How often this node ran before' },
  { label: '$position', kind: 'variable', detail: 'The index of the current item' },
  { label: '$jmespath()', kind: 'function', detail: 'Query JSON with JMESPath', apply: '$jmespath(' },
];

const INPUT: readonly CompletionOption[] = [
  { label: 'all()', kind: 'method', detail: 'Every input item' },
  { label: 'first()', kind: 'method', detail: 'The first input item' },
  { label: 'last()', kind: 'method', detail: 'The last input item' },
  { label: 'item', kind: 'property', detail: 'The input item being processed' },
  { label: 'params', kind: 'property', detail: "The node's parameters" },
  { label: 'context', kind: 'property', detail: 'noItemsLeft of a Split In Batches loop' },
];

/** What `$("Name").` and `$node["Name"].` offer. */
const NODE_ACCESS: readonly CompletionOption[] = [
  { label: 'json', kind: 'property', detail: 'The JSON of the paired item' },
  { label: 'binary', kind: 'property', detail: 'The binary data of the paired item' },
  { label: 'parameter', kind: 'property', detail: "The node's parameters" },
  { label: 'runIndex', kind: 'property', detail: 'The run the data comes from' },
  { label: 'all()', kind: 'method', detail: 'Every output item of the node' },
  { label: 'first()', kind: 'method', detail: 'The first output item of the node' },
  { label: 'last()', kind: 'method', detail: 'The last output item of the node' },
  { label: 'item', kind: 'property', detail: 'The paired item' },
];

const ITEM: readonly CompletionOption[] = [
  { label: 'json', kind: 'property', detail: 'The JSON of the item' },
  { label: 'binary', kind: 'property', detail: 'The binary data of the item' },
];

/** Luxon DateTime members n8n's editor offers on $now and $today. */
const LUXON: readonly CompletionOption[] = [
  ...['toISO', 'toISODate', 'toISOTime', 'toFormat', 'toLocaleString', 'toMillis', 'toSeconds', 'toJSDate', 'toRelative', 'toUTC', 'toLocal'].map(
    (name): CompletionOption => ({ label: `${name}()`, kind: 'method', detail: 'Luxon DateTime' }),
  ),
  ...['plus', 'minus', 'set', 'setZone', 'startOf', 'endOf', 'diff', 'diffNow', 'hasSame', 'equals', 'weekdayLong'].map(
    (name): CompletionOption => ({ label: name === 'weekdayLong' ? name : `${name}()`, kind: name === 'weekdayLong' ? 'property' : 'method', detail: 'Luxon DateTime' }),
  ),
  ...['year', 'quarter', 'month', 'day', 'weekday', 'weekNumber', 'ordinal', 'hour', 'minute', 'second', 'millisecond', 'zoneName', 'offset', 'isWeekend', 'daysInMonth', 'monthLong', 'monthShort'].map(
    (name): CompletionOption => ({ label: name, kind: 'property', detail: 'Luxon DateTime' }),
  ),
];

/** A name as it follows a dot, or in brackets when it is not an identifier. */
function fieldOption(name: string): CompletionOption {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? { label: name, kind: 'field' } : { label: name, kind: 'field', apply: `["${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]` };
}

function matching(options: readonly CompletionOption[], typed: string): CompletionOption[] {
  const lower = typed.toLowerCase();
  return options.filter((o) => o.label.toLowerCase().startsWith(lower));
}

function result(from: number, options: CompletionOption[]): CompletionResult | null {
  return options.length > 0 ? { from, options } : null;
}

const NAME = String.raw`(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`;
const NODE_REF = String.raw`(?:\$node\[${NAME}\]|\$\(${NAME}\))`;
const ITEM_ACCESS = String.raw`(?:\.item|\.first\(\)|\.last\(\)|\.all\(\)\[\d+\])`;

/** The node name a NODE_REF match captured (four alternatives). */
function nodeName(match: RegExpMatchArray, first: number): string {
  return match[first] ?? match[first + 1] ?? match[first + 2] ?? match[first + 3] ?? '';
}

/**
 * The completions at the end of `before` (the text of the line up to the cursor): root variables
 * after `$`, members of `$input`, `$now`/`$today` (Luxon), node names inside `$node["` and `$("`,
 * and the input's field names after `$json.` / `$input.item.json.` (a node's output fields after
 * `$node["Name"].json.` or `$("Name").item.json.`).
 */
export function completionsAt(before: string, data: CompletionData): CompletionResult | null {
  let m: RegExpMatchArray | null;

  // Node names inside $node[" or $(" (and $items(").
  if ((m = before.match(/(\$node\[|\$\(|\$items\()(["'])((?:[^"'\\]|\\.)*)$/))) {
    const quote = m[2];
    const close = m[1] === '$node[' ? `${quote}]` : `${quote})`;
    const typed = m[3] ?? '';
    const options = data.nodeNames.map((name): CompletionOption => ({ label: name, kind: 'node', apply: `${name}${close}` }));
    return result(before.length - typed.length, matching(options, typed));
  }

  // Fields of the input item.
  if ((m = before.match(new RegExp(String.raw`(?:\$json|\$input${ITEM_ACCESS}\.json|(?<![.\w$])item\.json)\.([\w$]*)$`)))) {
    const typed = m[1] ?? '';
    return result(before.length - typed.length, matching(data.inputFields.map(fieldOption), typed));
  }
  if ((m = before.match(/\$json\[(["'])((?:[^"'\\]|\\.)*)$/))) {
    const quote = m[1];
    const typed = m[2] ?? '';
    const options = data.inputFields.map((name): CompletionOption => ({ label: name, kind: 'field', apply: `${name}${quote}]` }));
    return result(before.length - typed.length, matching(options, typed));
  }

  // Fields of another node's output.
  if ((m = before.match(new RegExp(String.raw`${NODE_REF}(?:${ITEM_ACCESS})?\.json\.([\w$]*)$`)))) {
    const typed = m[5] ?? '';
    const fields = data.nodeFields[nodeName(m, 1)] ?? [];
    return result(before.length - typed.length, matching(fields.map(fieldOption), typed));
  }
  if ((m = before.match(new RegExp(String.raw`${NODE_REF}${ITEM_ACCESS}\.([\w$]*)$`)))) {
    const typed = m[5] ?? '';
    return result(before.length - typed.length, matching(ITEM, typed));
  }
  if ((m = before.match(new RegExp(String.raw`${NODE_REF}\.([\w$]*)$`)))) {
    const typed = m[5] ?? '';
    return result(before.length - typed.length, matching(NODE_ACCESS, typed));
  }

  if ((m = before.match(new RegExp(String.raw`\$input${ITEM_ACCESS}\.([\w$]*)$`)))) {
    const typed = m[1] ?? '';
    return result(before.length - typed.length, matching(ITEM, typed));
  }
  if ((m = before.match(/\$input\.([\w$]*)$/))) {
    const typed = m[1] ?? '';
    return result(before.length - typed.length, matching(INPUT, typed));
  }
  if ((m = before.match(/\$(?:now|today)\.([\w$]*)$/))) {
    const typed = m[1] ?? '';
    return result(before.length - typed.length, matching(LUXON, typed));
  }

  // A root variable being typed: `$` and what follows, not inside a longer word.
  if ((m = before.match(/(^|[^\w$.])(\$[\w$]*)$/))) {
    const typed = m[2] ?? '';
    return result(before.length - typed.length, matching(ROOT, typed));
  }
  return null;
}

/**
 * Where the `{{ }}` segment around the end of `text` starts (the offset after `{{`), or null when
 * the end is outside any segment: completions in expressions apply only inside one.
 */
export function openSegmentStart(text: string): number | null {
  const open = text.lastIndexOf('{{');
  if (open < 0) return null;
  return text.indexOf('}}', open + 2) < 0 ? open + 2 : null;
}
