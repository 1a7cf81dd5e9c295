import { GRID_SIZE, nodeRect, nodesBounds, snapPosition, type CanvasRect } from './canvas';
import type { Position, WorkflowNode } from './types';

/** Space kept between a placed block of nodes and the nodes already on the canvas. */
export const PLACEMENT_MARGIN = GRID_SIZE * 2;
/** Room under a node card for its name and subtitle, counted as part of the node when placing. */
export const LABEL_ROOM = 60;
/** How many grid rings around the wanted spot are tried before giving up on a free one. */
const MAX_RINGS = 20;

function grow(rect: CanvasRect, by: number): CanvasRect {
  return { x: rect.x - by, y: rect.y - by, width: rect.width + by * 2, height: rect.height + by * 2 };
}

function overlaps(a: CanvasRect, b: CanvasRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** A node's rectangle with the room its label takes below the card. */
function occupiedRect(node: WorkflowNode): CanvasRect {
  const rect = nodeRect(node);
  return { ...rect, height: rect.height + LABEL_ROOM };
}

/** True when a rectangle at that place would touch any node (with the margin). */
export function collides(nodes: readonly WorkflowNode[], rect: CanvasRect): boolean {
  const wanted = grow(rect, PLACEMENT_MARGIN);
  return nodes.some((node) => overlaps(wanted, occupiedRect(node)));
}

function inside(rect: CanvasRect, area: CanvasRect): boolean {
  return rect.x >= area.x && rect.y >= area.y && rect.x + rect.width <= area.x + area.width && rect.y + rect.height <= area.y + area.height;
}

/**
 * The free spot nearest to `wanted` (the rectangle's top-left corner) where a rectangle of that
 * size touches no node: grid rings around the wanted spot are searched outwards and the closest
 * free candidate wins. With `within` (the visible area), spots wholly inside it win over nearer
 * ones outside. Falls back to the right of all nodes when the neighbourhood is full.
 */
export function freeSpotNear(nodes: readonly WorkflowNode[], wanted: Position, size: { width: number; height: number }, within?: CanvasRect): Position {
  const start = snapPosition(wanted);
  const at = ([x, y]: Position): CanvasRect => ({ x, y, width: size.width, height: size.height });
  const visible = (spot: Position) => !within || inside(at(spot), within);
  if (!collides(nodes, at(start)) && visible(start)) return start;
  const step = GRID_SIZE * 2;
  let outside: Position | null = null;
  for (let ring = 1; ring <= MAX_RINGS; ring++) {
    let best: Position | null = null;
    let bestDistance = Infinity;
    for (let i = -ring; i <= ring; i++) {
      for (const [dx, dy] of [
        [i, -ring],
        [i, ring],
        [-ring, i],
        [ring, i],
      ] as const) {
        const candidate: Position = [start[0] + dx * step, start[1] + dy * step];
        const distance = dx * dx + dy * dy;
        if (distance >= bestDistance || collides(nodes, at(candidate))) continue;
        if (!visible(candidate)) {
          outside ??= candidate;
          continue;
        }
        best = candidate;
        bestDistance = distance;
      }
    }
    if (best) return best;
  }
  return outside ?? rightOf(nodes, start);
}

/** Just right of everything on the canvas, level with its top. */
function rightOf(nodes: readonly WorkflowNode[], fallback: Position): Position {
  const bounds = nodesBounds(nodes);
  if (!bounds) return fallback;
  return snapPosition([bounds.x + bounds.width + PLACEMENT_MARGIN * 2, bounds.y]);
}

/**
 * Where the top-left corner of imported or pasted nodes goes: at the wanted spot (the last click)
 * when the whole block fits there without covering a node, otherwise in the free space right of the
 * existing nodes, level with their top (n8n places pastes beside the workflow, never on top of it).
 */
export function importPosition(existing: readonly WorkflowNode[], incoming: readonly WorkflowNode[], wanted: Position): Position {
  const block = nodesBounds(incoming);
  const start = snapPosition(wanted);
  if (!block) return start;
  const rect: CanvasRect = { x: start[0], y: start[1], width: block.width, height: block.height + LABEL_ROOM };
  if (!collides(existing, rect)) return start;
  return rightOf(existing, start);
}
