import { STICKY_NOTE_TYPE } from './nodeTypes';
import type { Position, WorkflowNode } from './types';

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

/** A rectangle on the canvas, in canvas coordinates. */
export interface CanvasRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function stickySide(node: WorkflowNode, key: 'width' | 'height', fallback: number): number {
  const value = node.parameters[key];
  return typeof value === 'number' && value > 0 ? value : fallback;
}

/** The rectangle a node takes on the canvas: a NODE_SIZE square card, or a sticky note's own size. */
export function nodeRect(node: WorkflowNode): CanvasRect {
  const sticky = node.type === STICKY_NOTE_TYPE;
  return {
    x: node.position[0],
    y: node.position[1],
    width: sticky ? stickySide(node, 'width', STICKY_DEFAULT_WIDTH) : NODE_SIZE,
    height: sticky ? stickySide(node, 'height', STICKY_DEFAULT_HEIGHT) : NODE_SIZE,
  };
}

/**
 * The rectangle around all nodes as the canvas draws them (node cards NODE_SIZE square, sticky
 * notes their own size), or null without nodes. Fitting the view to it before the nodes are drawn
 * gives the view React Flow's fit would give once it has measured them.
 */
export function nodesBounds(nodes: readonly WorkflowNode[]): CanvasRect | null {
  if (nodes.length === 0) return null;
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const node of nodes) {
    const rect = nodeRect(node);
    left = Math.min(left, rect.x);
    top = Math.min(top, rect.y);
    right = Math.max(right, rect.x + rect.width);
    bottom = Math.max(bottom, rect.y + rect.height);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}
