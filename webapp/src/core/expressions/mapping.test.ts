import { describe, expect, it } from 'vitest';
import { droppedValue, encodeMappedField, fieldPathOfJsonView, mappingExpression, parseMappedField } from './mapping';

describe('drag-and-drop mapping', () => {
  it('builds n8n 0.186 expressions for plain and nested fields', () => {
    expect(mappingExpression({ nodeName: 'Start', direct: true, path: ['name'] })).toBe('{{ $json["name"] }}');
    expect(mappingExpression({ nodeName: 'Start', direct: true, path: ['a', 'b'] })).toBe('{{ $json["a"]["b"] }}');
    expect(mappingExpression({ nodeName: 'Start', direct: true, path: ['list', 0, 'x y'] })).toBe('{{ $json["list"][0]["x y"] }}');
    expect(mappingExpression({ nodeName: 'Fetch "all"', direct: false, path: ['id'] })).toBe('{{ $node["Fetch \\"all\\""].json["id"] }}');
  });

  it('reads the field path of a JSON view line, not of an item or the root', () => {
    expect(fieldPathOfJsonView('[0]["a"]["b"]')).toEqual(['a', 'b']);
    expect(fieldPathOfJsonView('[3]["list"][1]')).toEqual(['list', 1]);
    expect(fieldPathOfJsonView('[0]')).toBeNull();
    expect(fieldPathOfJsonView('')).toBeNull();
  });

  it('turns a fixed value into the expression and appends to an expression', () => {
    expect(droppedValue('', '{{ $json["a"] }}')).toBe('={{ $json["a"] }}');
    expect(droppedValue(undefined, '{{ $json["a"] }}')).toBe('={{ $json["a"] }}');
    expect(droppedValue('fixed text', '{{ $json["a"] }}')).toBe('={{ $json["a"] }}');
    expect(droppedValue(5, '{{ $json["a"] }}')).toBe('={{ $json["a"] }}');
    expect(droppedValue('=', '{{ $json["a"] }}')).toBe('={{ $json["a"] }}');
    expect(droppedValue('=Hello {{ $json["b"] }}', '{{ $json["a"] }}')).toBe('=Hello {{ $json["b"] }} {{ $json["a"] }}');
  });

  it('reads back only well-formed drag data', () => {
    const field = { nodeName: 'Start', direct: true, path: ['a', 0] };
    expect(parseMappedField(encodeMappedField(field))).toEqual(field);
    expect(parseMappedField('not json')).toBeNull();
    expect(parseMappedField('{"nodeName":"x","direct":true,"path":[{}]}')).toBeNull();
    expect(parseMappedField('{"nodeName":"x","path":[]}')).toBeNull();
  });
});
