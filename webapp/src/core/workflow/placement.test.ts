import { describe, expect, it } from 'vitest';
import { NODE_SIZE, STICKY_DEFAULT_HEIGHT, STICKY_DEFAULT_WIDTH } from './canvas';
import { collides, freeSpotNear, importPosition, LABEL_ROOM, PLACEMENT_MARGIN } from './placement';
import type { WorkflowNode } from './types';

const at = (name: string, x: number, y: number, type = 'n8n-nodes-base.noOp'): WorkflowNode => ({ name, type, typeVersion: 1, position: [x, y], parameters: {} });
const sticky = { width: STICKY_DEFAULT_WIDTH, height: STICKY_DEFAULT_HEIGHT };

describe('free spot near', () => {
  it('keeps the wanted spot when it is free', () => {
    expect(freeSpotNear([at('Start', 240, 300)], [1000, 1000], sticky)).toEqual([1000, 1000]);
  });

  it('moves a new sticky note off the Start node to the nearest free spot', () => {
    const start = at('Start', 240, 300);
    const spot = freeSpotNear([start], [100, 200], sticky);
    expect(collides([start], { x: spot[0], y: spot[1], ...sticky })).toBe(false);
    // The nearest free spot, not one far away.
    expect(Math.hypot(spot[0] - 100, spot[1] - 200)).toBeLessThan(STICKY_DEFAULT_HEIGHT + NODE_SIZE + LABEL_ROOM + PLACEMENT_MARGIN * 2);
  });

  it('falls back to the right of all nodes when everything near is taken', () => {
    const nodes: WorkflowNode[] = [];
    for (let x = 0; x < 40; x++) for (let y = 0; y < 40; y++) nodes.push(at(`N${x}-${y}`, x * 120, y * 120));
    const spot = freeSpotNear(nodes, [2000, 2000], sticky);
    expect(collides(nodes, { x: spot[0], y: spot[1], ...sticky })).toBe(false);
    expect(spot[0]).toBeGreaterThan(40 * 120);
  });
});

describe('import position', () => {
  const existing = [at('Start', 240, 300), at('Set', 460, 300)];
  const incoming = [at('A', 0, 0), at('B', 220, 0)];

  it('uses the wanted spot when the block fits there', () => {
    expect(importPosition(existing, incoming, [240, 800])).toEqual([240, 800]);
  });

  it('goes right of the existing nodes when the block would cover them', () => {
    const [x, y] = importPosition(existing, incoming, [250, 310]);
    expect(x).toBeGreaterThanOrEqual(460 + NODE_SIZE + PLACEMENT_MARGIN);
    expect(y).toBe(300);
    // None of the pasted nodes lands on an existing one.
    for (const node of incoming) expect(collides(existing, { x: node.position[0] + x, y: node.position[1] + y, width: NODE_SIZE, height: NODE_SIZE })).toBe(false);
  });

  it('snaps to the grid and handles an empty canvas', () => {
    expect(importPosition([], incoming, [453, 447])).toEqual([460, 440]);
  });
});

describe('free spot in view', () => {
  it('prefers a spot wholly in the visible area over a nearer one outside', () => {
    const start = at('Start', 240, 300);
    const view = { x: -300, y: 100, width: 1200, height: 700 };
    const spot = freeSpotNear([start], [100, 230], sticky, view);
    expect(collides([start], { x: spot[0], y: spot[1], ...sticky })).toBe(false);
    expect(spot[1]).toBeGreaterThanOrEqual(view.y);
    expect(spot[0] + sticky.width).toBeLessThanOrEqual(view.x + view.width);
  });
});
