import { describe, expect, it } from 'vitest';
import { formatDateTime, timeAgo } from './timeAgo';

describe('timeAgo', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it('names the largest whole unit', () => {
    expect(timeAgo('2026-11-26T09:59:30Z', now)).toBe('just now');
    expect(timeAgo('2026-11-26T09:55:00Z', now)).toBe('5 minutes ago');
    expect(timeAgo('2026-11-25T09:00:00Z', now)).toBe('yesterday');
    expect(timeAgo('2026-08-20T10:00:00Z', now)).toBe('3 months ago');
    expect(timeAgo('not a date', now)).toBe('');
  });

  it('formats a date and time, empty when unparsable', () => {
    expect(formatDateTime('2026-11-26T09:45:00Z')).toMatch(/26 Nov 2026/);
    expect(formatDateTime('x')).toBe('');
  });
});
