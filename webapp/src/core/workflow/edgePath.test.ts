import { describe, expect, it } from 'vitest';
import { backwardEdge, isBackward, LOOP_DROP, LOOP_STUB, roundedPolyline } from './edgePath';

/** The numbers of an SVG path, as [x, y] pairs. */
function points(path: string): Array<[number, number]> {
  const numbers = (path.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) out.push([numbers[i] as number, numbers[i + 1] as number]);
  return out;
}

describe('edge paths', () => {
  it('tells forward from backward connections', () => {
    expect(isBackward(100, 400)).toBe(false);
    expect(isBackward(400, 100)).toBe(true);
    // An input right next to the output still needs the loop.
    expect(isBackward(100, 100 + LOOP_STUB)).toBe(true);
  });

  it('loops a same-row backward connection below both nodes', () => {
    const edge = backwardEdge(600, 350, 240, 350);
    const ys = points(edge.path).map(([, y]) => y);
    expect(Math.max(...ys)).toBe(350 + LOOP_DROP);
    expect(edge.labelY).toBe(350 + LOOP_DROP);
    expect(edge.labelX).toBe((600 + LOOP_STUB + 240 - LOOP_STUB) / 2);
    // Leaves to the right and enters from the left.
    expect(edge.path.startsWith('M600,350 L')).toBe(true);
    expect(edge.path.endsWith('L240,350')).toBe(true);
    const xs = points(edge.path).map(([x]) => x);
    expect(Math.max(...xs)).toBe(600 + LOOP_STUB);
    expect(Math.min(...xs)).toBe(240 - LOOP_STUB);
  });

  it('runs between two distant rows through the gap', () => {
    const edge = backwardEdge(600, 100, 240, 700);
    expect(edge.labelY).toBe(400);
  });

  it('rounds corners without overshooting short segments', () => {
    const d = roundedPolyline([
      [0, 0],
      [10, 0],
      [10, 100],
    ], 14);
    expect(d).toBe('M0,0 L5,0 Q10,0 10,5 L10,100');
  });
});
