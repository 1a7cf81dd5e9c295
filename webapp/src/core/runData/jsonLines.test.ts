import { describe, expect, it } from 'vitest';
import { itemPathExpression, jsonLines, parameterPathExpression, pathSegments, valueAtPath } from './jsonLines';

describe('json tree lines', () => {
  const data = [{ name: 'a', tags: ['x', 'y'], deep: { inner: { leaf: 1 } } }];

  it('flattens a value into lines with paths in expression notation', () => {
    const lines = jsonLines(data, { depth: 10, toggled: new Set() });
    expect(lines.map((line) => `${line.kind}:${line.path}`)).toEqual([
      'open:',
      'open:[0]',
      'value:[0]["name"]',
      'open:[0]["tags"]',
      'value:[0]["tags"][0]',
      'value:[0]["tags"][1]',
      'close:[0]["tags"]',
      'open:[0]["deep"]',
      'open:[0]["deep"]["inner"]',
      'value:[0]["deep"]["inner"]["leaf"]',
      'close:[0]["deep"]["inner"]',
      'close:[0]["deep"]',
      'close:[0]',
      'close:',
    ]);
  });

  it('collapses containers at the depth limit, and toggles flip a container', () => {
    const shallow = jsonLines(data, { depth: 2, toggled: new Set() });
    expect(shallow.find((line) => line.path === '[0]["deep"]')).toMatchObject({ kind: 'collapsed', size: 1 });
    const opened = jsonLines(data, { depth: 2, toggled: new Set(['[0]["deep"]']) });
    expect(opened.find((line) => line.path === '[0]["deep"]')?.kind).toBe('open');
    const closed = jsonLines(data, { depth: 10, toggled: new Set(['[0]']) });
    expect(closed).toHaveLength(3);
  });

  it('expands ten levels by default', () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < 12; i++) nested = { level: nested };
    const lines = jsonLines(nested, { depth: 10, toggled: new Set() });
    expect(lines.filter((line) => line.kind === 'open')).toHaveLength(10);
    expect(lines.filter((line) => line.kind === 'collapsed')).toHaveLength(1);
  });

  it('reads values and builds n8n copy expressions from a selection', () => {
    expect(pathSegments('[3]["a \\"b"][1]')).toEqual([3, 'a "b', 1]);
    expect(valueAtPath(data, '[0]["tags"][1]')).toBe('y');
    expect(valueAtPath(data, '[0]["missing"]["x"]')).toBeUndefined();
    expect(itemPathExpression('Set', '[2]["name"]', 20)).toBe('{{ $item(22).$node["Set"].json["name"] }}');
    expect(parameterPathExpression('Set', '[2]["tags"][0]')).toBe('{{ $node["Set"].json["tags"][0] }}');
    expect(itemPathExpression('Set', '', 0)).toBeNull();
  });
});
