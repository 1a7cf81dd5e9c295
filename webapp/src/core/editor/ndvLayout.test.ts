import { describe, expect, it } from 'vitest';
import { NDV_MAIN_WIDTH, NDV_MIN_SIDE_WIDTH, NDV_SIDE_MARGIN, ndvLayout, positionFor } from './ndvLayout';

describe('node details layout', () => {
  it('centres the 360 px middle panel by default and gives the sides the rest', () => {
    const layout = ndvLayout(1600, 0.5, true);
    expect(layout.mainLeft).toBe(800 - NDV_MAIN_WIDTH / 2);
    expect(layout.inputLeft).toBe(NDV_SIDE_MARGIN);
    expect(layout.outputLeft).toBe(980);
    expect(layout.outputRight).toBe(1600 - NDV_SIDE_MARGIN);
    expect(layout).toMatchObject({ canMoveLeft: true, canMoveRight: true });
  });

  it('keeps both side panels at least 320 px wide while dragging', () => {
    const left = ndvLayout(1600, 0, true);
    expect(left.mainLeft - (left.inputLeft ?? 0)).toBe(NDV_MIN_SIDE_WIDTH);
    expect(left.canMoveLeft).toBe(false);
    const right = ndvLayout(1600, 1, true);
    expect(right.outputRight - right.outputLeft).toBe(NDV_MIN_SIDE_WIDTH);
    expect(right.canMoveRight).toBe(false);
  });

  it('gives trigger nodes no input panel and a fixed middle panel at the margin', () => {
    expect(ndvLayout(1600, 0.7, false)).toEqual({ mainLeft: 24, inputLeft: null, outputLeft: 384, outputRight: 1576, canMoveLeft: false, canMoveRight: false });
  });

  it('turns a dragged edge back into a clamped position', () => {
    expect(positionFor(1600, 620)).toBeCloseTo(0.5);
    expect(ndvLayout(1600, positionFor(1600, 0), true).mainLeft).toBe(NDV_SIDE_MARGIN + NDV_MIN_SIDE_WIDTH);
    expect(positionFor(0, 100)).toBe(0.5);
  });
});
