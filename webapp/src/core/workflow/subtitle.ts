import type { JsonValue } from './types';

type Token = { kind: 'str'; value: string } | { kind: 'param'; name: string } | { kind: 'op'; value: string };

const TOKEN = /\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|\$parameter\[\s*["']([^"']+)["']\s*\]|\$parameter\.([A-Za-z_$][\w$]*)|(===|!==|==|!=|\+|\?|:|\(|\)))/y;

function tokenize(source: string): Token[] | null {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (!match) return null;
    if (match[1] !== undefined || match[2] !== undefined) tokens.push({ kind: 'str', value: (match[1] ?? match[2] ?? '').replace(/\\(.)/g, '$1') });
    else if (match[3] !== undefined || match[4] !== undefined) tokens.push({ kind: 'param', name: match[3] ?? match[4] ?? '' });
    else tokens.push({ kind: 'op', value: match[5] ?? '' });
  }
  return tokens;
}

function text(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return 'undefined';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * Evaluates the small expressions node types use as subtitles: `$parameter["x"]` references,
 * string literals, `+`, comparisons and `? :`, with parentheses. Anything else gives null (the
 * card then shows no subtitle rather than guessing).
 */
export function evaluateSubtitle(subtitle: string, values: Readonly<Record<string, JsonValue | undefined>>): string | null {
  const body = /^=\{\{([\s\S]*)\}\}$/.exec(subtitle.trim())?.[1];
  if (body === undefined) return subtitle.startsWith('=') ? null : subtitle;
  const tokens = tokenize(body);
  if (!tokens) return null;
  let at = 0;
  const peek = (value: string) => tokens[at]?.kind === 'op' && (tokens[at] as { value: string }).value === value;
  const primary = (): JsonValue | undefined => {
    const token = tokens[at++];
    if (!token) throw new Error('end');
    if (token.kind === 'str') return token.value;
    if (token.kind === 'param') return values[token.name];
    if (token.value === '(') {
      const inner = ternary();
      if (!peek(')')) throw new Error('paren');
      at++;
      return inner;
    }
    throw new Error('token');
  };
  const sum = (): JsonValue | undefined => {
    let left = primary();
    while (peek('+')) {
      at++;
      left = text(left) + text(primary());
    }
    return left;
  };
  const comparison = (): JsonValue | undefined => {
    const left = sum();
    const token = tokens[at];
    if (token?.kind === 'op' && ['===', '!==', '==', '!='].includes(token.value)) {
      at++;
      const equal = text(left) === text(sum());
      return token.value.startsWith('!') ? !equal : equal;
    }
    return left;
  };
  const ternary = (): JsonValue | undefined => {
    const condition = comparison();
    if (!peek('?')) return condition;
    at++;
    const yes = ternary();
    if (!peek(':')) throw new Error('ternary');
    at++;
    const no = ternary();
    return condition ? yes : no;
  };
  try {
    const value = ternary();
    return at === tokens.length ? text(value) : null;
  } catch {
    return null;
  }
}
