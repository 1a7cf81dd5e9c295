import { describe, expect, it, vi } from 'vitest';
import { insertVariable } from './insert';
import { planSegments } from './plan';
import { ResolveCache } from './resolveCache';
import { inlineResultText, segmentResultText, valueToText } from './result';
import type { TaskData } from '@/core/push/messages';
import { MAX_SENT_BINARY_LENGTH, runDataForPreview } from './requestData';
import { isLoneSegment, parseTemplate } from './template';

describe('templates', () => {
  it('splits text and code, skipping braces inside strings and objects', () => {
    expect(parseTemplate('a {{ $json.x }} b {{ {k: {v: "}}"}} }}').map((s) => (s.kind === 'code' ? `[${s.code}]` : s.text))).toEqual([
      'a ',
      '[ $json.x ]',
      ' b ',
      '[ {k: {v: "}}"}} ]',
    ]);
    expect(parseTemplate('open {{ never closed')).toEqual([{ kind: 'text', text: 'open {{ never closed', start: 0, end: 20 }]);
    expect(parseTemplate('{{1}}')[0]).toEqual({ kind: 'code', code: '1', start: 0, end: 5 });
  });

  it('tells a lone segment from mixed text', () => {
    expect(isLoneSegment(parseTemplate(' {{ 1 }}\n'))).toBe(true);
    expect(isLoneSegment(parseTemplate('x{{ 1 }}'))).toBe(false);
    expect(isLoneSegment(parseTemplate('{{ 1 }}{{ 2 }}'))).toBe(false);
  });

  it('evaluates a lone segment as the whole expression and mixed segments one by one', () => {
    expect(planSegments('={{ $json }}').map((p) => p.expression)).toEqual(['={{ $json }}']);
    expect(planSegments('=a {{ 1 }} b {{2}}').map((p) => p.expression)).toEqual([undefined, '={{ 1 }}', undefined, '={{2}}']);
  });
});

describe('inserting a variable', () => {
  it('inserts {{variable}} at the cursor and moves the cursor after it', () => {
    expect(insertVariable('Hello !', 6, 6, '$json.name')).toEqual({ value: 'Hello {{$json.name}}!', cursor: 20 });
    expect(insertVariable('', 0, 0, '$json.a')).toEqual({ value: '{{$json.a}}', cursor: 11 });
  });

  it('replaces the selection', () => {
    expect(insertVariable('a XXX b', 2, 5, '$now')).toEqual({ value: 'a {{$now}} b', cursor: 10 });
    expect(insertVariable('a XXX b', 5, 2, '$now').value).toBe('a {{$now}} b');
  });

  it('inserts the bare variable inside a {{ }} segment', () => {
    expect(insertVariable('{{  }}', 3, 3, '$json.a')).toEqual({ value: '{{ $json.a }}', cursor: 10 });
    expect(insertVariable('{{ 1 }}', 0, 0, '$json.a').value).toBe('{{$json.a}}{{ 1 }}');
  });

  it('clamps a cursor past the end', () => {
    expect(insertVariable('ab', 9, 9, 'x').value).toBe('ab{{x}}');
  });
});

describe('result texts', () => {
  it('writes values as n8n shows them', () => {
    expect(valueToText('s')).toBe('s');
    expect(valueToText(3)).toBe('3');
    expect(valueToText(false)).toBe('false');
    expect(valueToText(null)).toBe('null');
    expect(valueToText({ a: [1] })).toBe('{"a":[1]}');
  });

  it('reads [empty] and [ERROR: …] inline', () => {
    expect(inlineResultText({ ok: true, value: 'x' })).toEqual({ kind: 'value', text: 'x' });
    expect(inlineResultText({ ok: true, value: '' })).toEqual({ kind: 'empty' });
    expect(inlineResultText({ ok: false, kind: 'notFound', message: 'undefined' })).toEqual({ kind: 'empty' });
    expect(inlineResultText({ ok: false, kind: 'invalid', message: 'boom' })).toEqual({ kind: 'invalid', message: 'boom' });
  });

  it('reads [not found] and [invalid (…)] per segment, null as nothing', () => {
    expect(segmentResultText({ ok: true, value: null })).toEqual({ kind: 'value', text: '' });
    expect(segmentResultText({ ok: true, value: [1, 2] })).toEqual({ kind: 'value', text: '[1,2]' });
    expect(segmentResultText({ ok: false, kind: 'notFound', message: '' })).toEqual({ kind: 'notFound' });
    expect(segmentResultText({ ok: false, kind: 'invalid', message: 'bad' })).toEqual({ kind: 'invalid', message: 'bad' });
  });
});

describe('the resolve cache', () => {
  it('shares a call per scope and key while it is fresh, and forgets failures', async () => {
    let now = 0;
    const cache = new ResolveCache<object, number>(1000, () => now);
    const scope = {};
    const load = vi.fn(() => Promise.resolve(1));
    await cache.get(scope, 'k', load);
    await cache.get(scope, 'k', load);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get({}, 'k', load);
    await cache.get(scope, 'other', load);
    expect(load).toHaveBeenCalledTimes(3);
    now = 1000;
    await cache.get(scope, 'k', load);
    expect(load).toHaveBeenCalledTimes(4);

    const failing = vi.fn(() => Promise.reject(new Error('down')));
    await expect(cache.get(scope, 'f', failing)).rejects.toThrow('down');
    await expect(cache.get(scope, 'f', failing)).rejects.toThrow('down');
    expect(failing).toHaveBeenCalledTimes(2);
  });
});

describe('run data sent with previews', () => {
  it('empties large binary data only, once per run data object', () => {
    const big = 'A'.repeat(MAX_SENT_BINARY_LENGTH + 1);
    const small: TaskData = { startTime: 1, executionTime: 1, source: [], data: { main: [[{ json: { a: 1 }, binary: { f: { data: 'QQ==', mimeType: 'text/plain' } } }]] } };
    const large: TaskData = { startTime: 1, executionTime: 1, source: [], data: { main: [null, [{ json: {}, binary: { f: { data: big, mimeType: 'image/png', fileName: 'x.png' } } }]] } };
    const runData = { A: [small], B: [large] };
    const sent = runDataForPreview(runData);
    expect(sent.A?.[0]).toBe(small);
    expect(sent.B?.[0]?.data?.main).toEqual([null, [{ json: {}, binary: { f: { data: '', mimeType: 'image/png', fileName: 'x.png' } } }]]);
    expect(large.data?.main[1]?.[0]?.binary).toEqual({ f: { data: big, mimeType: 'image/png', fileName: 'x.png' } });
    expect(runDataForPreview(runData)).toBe(sent);
    expect(runDataForPreview(null)).toEqual({});
  });
});
