import { describe, expect, it } from 'vitest';
import { LABEL_MAX_SCALE, labelScale, lineScale } from './zoomScale';

describe('zoom scales', () => {
  it('leaves names and lines alone at normal zoom', () => {
    expect(labelScale(1)).toBe(1);
    expect(labelScale(0.7)).toBe(1);
    expect(lineScale(2)).toBe(1);
  });

  it('keeps names about 8 px on screen when zoomed out, within the limit', () => {
    expect(13 * labelScale(0.3) * 0.3).toBeCloseTo(8, 0);
    expect(labelScale(0.2)).toBe(LABEL_MAX_SCALE);
    expect(labelScale(0.05)).toBe(LABEL_MAX_SCALE);
  });

  it('changes in steps of 0.05', () => {
    expect((labelScale(0.41) * 20) % 1).toBe(0);
    expect(labelScale(0.41)).toBe(labelScale(0.412));
  });
});
