import { describe, expect, it } from 'vitest';
import { runTimeMs, TIMER_INTERVAL_MS, timerParts } from './timer';

describe('timerParts', () => {
  it('shows whole seconds under a minute, or exact seconds with milliseconds', () => {
    expect(timerParts(0)).toEqual({ unit: 'seconds', seconds: '0' });
    expect(timerParts(45_900)).toEqual({ unit: 'seconds', seconds: '45' });
    expect(timerParts(12_300, true)).toEqual({ unit: 'seconds', seconds: '12.3' });
    expect(timerParts(59_999, true)).toEqual({ unit: 'seconds', seconds: '59.999' });
  });

  it('switches to minutes and two-digit seconds from 60 s on', () => {
    expect(timerParts(60_000)).toEqual({ unit: 'minutes', minutes: 1, seconds: '00' });
    expect(timerParts(65_400, true)).toEqual({ unit: 'minutes', minutes: 1, seconds: '05' });
    expect(timerParts(3_725_000)).toEqual({ unit: 'minutes', minutes: 62, seconds: '05' });
  });

  it('counts a negative time (clock skew) as zero', () => {
    expect(timerParts(-500)).toEqual({ unit: 'seconds', seconds: '0' });
  });

  it('updates every second', () => {
    expect(TIMER_INTERVAL_MS).toBe(1000);
  });
});

describe('runTimeMs', () => {
  it('measures from start to stop and gives null when either is missing', () => {
    expect(runTimeMs('2024-05-01T10:00:00.000Z', '2024-05-01T10:00:01.250Z')).toBe(1250);
    expect(runTimeMs('2024-05-01T10:00:00Z', null)).toBeNull();
    expect(runTimeMs(undefined, '2024-05-01T10:00:00Z')).toBeNull();
    expect(runTimeMs('garbage', '2024-05-01T10:00:00Z')).toBeNull();
  });
});
