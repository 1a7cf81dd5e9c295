/**
 * How much node names and connection lines are enlarged on the canvas at a zoom level, so that
 * zoomed far out a name stays about 8 px tall on screen and a line about 1.2 px wide instead of
 * shrinking with the view. Never below 1 (no shrinking when zoomed in) and within the limits below,
 * rounded to steps of 0.05 so a zoom gesture restyles the labels only a few times.
 */
export const LABEL_SCREEN_SCALE = 0.62;
export const LABEL_MAX_SCALE = 3.1;
export const LINE_SCREEN_SCALE = 0.6;
export const LINE_MAX_SCALE = 3;

function stepped(value: number, max: number): number {
  const clamped = Math.min(max, Math.max(1, value));
  return Math.round(clamped * 20) / 20;
}

export function labelScale(zoom: number): number {
  return stepped(LABEL_SCREEN_SCALE / Math.max(zoom, 0.01), LABEL_MAX_SCALE);
}

export function lineScale(zoom: number): number {
  return stepped(LINE_SCREEN_SCALE / Math.max(zoom, 0.01), LINE_MAX_SCALE);
}
