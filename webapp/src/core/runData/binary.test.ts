import { describe, expect, it } from 'vitest';
import { base64ByteLength, binaryEntriesOf, binaryFileSize, binarySource, binaryViewKind, decodeBinaryText, hasBinaryData } from './binary';

const HELLO = btoa('hello world');

describe('binary detection', () => {
  it('finds items with binary entries', () => {
    expect(hasBinaryData([{ json: {} }, { json: {}, binary: {} }])).toBe(false);
    expect(hasBinaryData([{ json: {} }, { json: {}, binary: { data: { data: HELLO, mimeType: 'text/plain' } } }])).toBe(true);
  });

  it('lists the entries of an item, skipping malformed ones', () => {
    const entries = binaryEntriesOf({ json: {}, binary: { file: { data: HELLO, fileName: 'a.txt', mimeType: 'text/plain' }, broken: 'x' } });
    expect(entries).toHaveLength(1);
    expect(entries[0]?.[0]).toBe('file');
    expect(entries[0]?.[1]).toMatchObject({ fileName: 'a.txt', mimeType: 'text/plain' });
  });

  it('chooses the viewer by mime type and extension', () => {
    expect(binaryViewKind({ mimeType: 'image/png' })).toBe('image');
    expect(binaryViewKind({ mimeType: 'video/mp4' })).toBe('video');
    expect(binaryViewKind({ mimeType: 'audio/mpeg' })).toBe('audio');
    expect(binaryViewKind({ mimeType: 'application/pdf' })).toBe('pdf');
    expect(binaryViewKind({ mimeType: 'application/json; charset=utf-8' })).toBe('json');
    expect(binaryViewKind({ mimeType: 'text/csv' })).toBe('text');
    expect(binaryViewKind({ mimeType: 'application/octet-stream', fileExtension: 'pdf' })).toBe('pdf');
    expect(binaryViewKind({ mimeType: 'application/zip' })).toBe('other');
  });

  it('uses inline data directly and fetches stored entries by id', () => {
    expect(binarySource({ data: HELLO, id: 'x' })).toEqual({ kind: 'inline', base64: HELLO });
    expect(binarySource({ id: 'abc' })).toEqual({ kind: 'stored', id: 'abc' });
    expect(binarySource({})).toEqual({ kind: 'none' });
  });

  it('decodes UTF-8 text and indents JSON', () => {
    expect(decodeBinaryText(btoa(String.fromCharCode(...new TextEncoder().encode('grüße'))), 'text')).toBe('grüße');
    expect(decodeBinaryText(btoa('{"a":1}'), 'json')).toBe('{\n  "a": 1\n}');
  });

  it('measures inline data for the size field when the entry has none', () => {
    expect(base64ByteLength(HELLO)).toBe(11);
    expect(binaryFileSize({ data: HELLO })).toBe('11 B');
    expect(binaryFileSize({ fileSize: '2 MB' })).toBe('2 MB');
    expect(binaryFileSize({ fileSize: 1500 })).toBe('1.5 kB');
    expect(binaryFileSize({ id: 'x' })).toBeNull();
  });
});
