import { NODE_SIZE } from './canvas';

/** How far a backward connection runs straight out of its output and into its input. */
export const LOOP_STUB = 24;
/** Below the lower node's centre: under its card and its two-line label. */
export const LOOP_DROP = NODE_SIZE / 2 + 90;
/** Corner radius of a backward connection's loop. */
export const LOOP_RADIUS = 14;

/** An SVG path with its label spot. */
export interface EdgeGeometry {
  path: string;
  labelX: number;
  labelY: number;
}

/**
 * True when a connection cannot be drawn as a forward curve: its input is left of (or too close
 * to) its output, so a curve would cut back across the nodes.
 */
export function isBackward(sourceX: number, targetX: number): boolean {
  return targetX < sourceX + LOOP_STUB * 2;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A polyline through the points with rounded corners (quadratic curves), as an SVG path. */
export function roundedPolyline(points: ReadonlyArray<readonly [number, number]>, radius: number): string {
  const first = points[0];
  if (!first) return '';
  let d = `M${round(first[0])},${round(first[1])}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [px, py] = points[i - 1] as readonly [number, number];
    const [cx, cy] = points[i] as readonly [number, number];
    const [nx, ny] = points[i + 1] as readonly [number, number];
    const inLength = Math.hypot(cx - px, cy - py);
    const outLength = Math.hypot(nx - cx, ny - cy);
    const r = Math.min(radius, inLength / 2, outLength / 2);
    if (r <= 0) {
      d += ` L${round(cx)},${round(cy)}`;
      continue;
    }
    const ax = cx - ((cx - px) / inLength) * r;
    const ay = cy - ((cy - py) / inLength) * r;
    const bx = cx + ((nx - cx) / outLength) * r;
    const by = cy + ((ny - cy) / outLength) * r;
    d += ` L${round(ax)},${round(ay)} Q${round(cx)},${round(cy)} ${round(bx)},${round(by)}`;
  }
  const last = points[points.length - 1] as readonly [number, number];
  return `${d} L${round(last[0])},${round(last[1])}`;
}

/**
 * A backward connection as n8n draws it: out of the output to the right, round below the nodes
 * (or, between two rows, through the gap between them), back left and into the input from the
 * left, so it never crosses the cards it joins.
 */
export function backwardEdge(sourceX: number, sourceY: number, targetX: number, targetY: number): EdgeGeometry {
  const out = sourceX + LOOP_STUB;
  const into = targetX - LOOP_STUB;
  // Nodes on rows far enough apart leave a gap between the rows to run through.
  const apart = Math.abs(targetY - sourceY) >= NODE_SIZE + LOOP_DROP;
  const loopY = apart ? (sourceY + targetY) / 2 : Math.max(sourceY, targetY) + LOOP_DROP;
  const path = roundedPolyline(
    [
      [sourceX, sourceY],
      [out, sourceY],
      [out, loopY],
      [into, loopY],
      [into, targetY],
      [targetX, targetY],
    ],
    LOOP_RADIUS,
  );
  return { path, labelX: (out + into) / 2, labelY: loopY };
}
