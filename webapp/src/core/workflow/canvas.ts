import type { Position } from './types';

/** Canvas constants of spec 001 §9. */
export const GRID_SIZE = 20;
export const NODE_SIZE = 100;
export const ZOOM_STEP = 1.25;
export const START_NODE_POSITION: Position = [240, 300];
export const DEFAULT_LAST_CLICK_POSITION: Position = [450, 450];
/** A new node to the right of its source: two node widths and a grid step. */
export const PUSH_NODES_OFFSET = NODE_SIZE * 2 + GRID_SIZE;
/** A duplicate sits this far below its original. */
export const DUPLICATE_OFFSET_Y = 140;
export const STICKY_DEFAULT_WIDTH = 380;
export const STICKY_DEFAULT_HEIGHT = 300;
export const STICKY_DROP_THRESHOLD = 24;
/** Vertical offsets of a new node by output index, for sources with 2, 3 and 4 outputs. */
export const OUTPUT_INSERT_OFFSETS: readonly (readonly number[])[] = [
  [-100, 100],
  [-140, 0, 140],
  [-240, -100, 100, 240],
];
export const MIN_ZOOM = 0.2;
export const MAX_ZOOM = 4;

export function snapToGrid(value: number): number {
  return Math.round(value / GRID_SIZE) * GRID_SIZE;
}

export function snapPosition([x, y]: Position): Position {
  return [snapToGrid(x), snapToGrid(y)];
}

/** Vertical offset for a node added at an output of a source with that many outputs. */
export function outputInsertOffset(outputCount: number, outputIndex: number): number {
  if (outputCount < 2) return 0;
  return OUTPUT_INSERT_OFFSETS[outputCount - 2]?.[outputIndex] ?? 0;
}

/**
 * A free spot at or near the wanted position: moved by `step` while another node sits at the same
 * spot, so new nodes never hide under existing ones.
 */
export function freePosition(taken: readonly Position[], wanted: Position, step: Position = [GRID_SIZE * 2, GRID_SIZE * 2]): Position {
  let [x, y] = wanted;
  const occupied = (px: number, py: number) => taken.some(([tx, ty]) => Math.abs(tx - px) < GRID_SIZE && Math.abs(ty - py) < GRID_SIZE);
  for (let i = 0; i < 500 && occupied(x, y); i++) {
    x += step[0];
    y += step[1];
  }
  return [x, y];
}

/** Zoom after one zoom-in or zoom-out step, kept within the canvas limits. */
export function steppedZoom(zoom: number, direction: 'in' | 'out'): number {
  const next = direction === 'in' ? zoom * ZOOM_STEP : zoom / ZOOM_STEP;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, next));
}
