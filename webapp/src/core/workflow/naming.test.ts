import { describe, expect, it } from 'vitest';
import { checkWorkflowName, copyName, downloadFileName, headerNameLimit, shortenName, uniqueName } from './naming';

describe('names', () => {
  it('adds increasing numeric suffixes to taken names', () => {
    expect(uniqueName('Set', new Set())).toBe('Set');
    expect(uniqueName('Set', new Set(['Set']))).toBe('Set1');
    expect(uniqueName('Set', new Set(['Set', 'Set1', 'Set2']))).toBe('Set3');
    expect(uniqueName('Set1', new Set(['Set1']))).toBe('Set2');
    expect(uniqueName('12', new Set(['12']))).toBe('13');
  });

  it('checks workflow names: trimmed, 1 to 128 characters', () => {
    expect(checkWorkflowName('  Flow  ')).toEqual({ ok: true, name: 'Flow' });
    expect(checkWorkflowName('   ')).toEqual({ ok: false, reason: 'empty' });
    expect(checkWorkflowName('x'.repeat(128)).ok).toBe(true);
    expect(checkWorkflowName('x'.repeat(129))).toEqual({ ok: false, reason: 'tooLong' });
  });

  it('proposes copy names within the limit', () => {
    expect(copyName('Flow')).toBe('Flow copy');
    expect([...copyName('x'.repeat(128))].length).toBe(128);
  });

  it('builds download file names', () => {
    expect(downloadFileName('My workflow: v2!')).toBe('My_workflow__v2_.json');
    expect(downloadFileName('')).toBe('unsaved_workflow.json');
    expect(downloadFileName(undefined)).toBe('unsaved_workflow.json');
  });

  it('shortens long names keeping the last 4 characters', () => {
    expect(shortenName('short')).toBe('short');
    expect(shortenName('abcdefghijklmnopqrstuvwxyz0123')).toBe('abcdefghijklmnopqrst…0123');
  });

  it('gives the header 15, 25 or 50 characters by window width', () => {
    expect([500, 767, 768, 991, 992, 1920].map(headerNameLimit)).toEqual([15, 15, 25, 25, 50, 50]);
    expect(shortenName('A rather long workflow name', headerNameLimit(600))).toBe('A rather l…name');
  });
});
