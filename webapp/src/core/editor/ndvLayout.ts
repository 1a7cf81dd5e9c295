/** Node details view geometry (spec 001 §9), in CSS pixels. */
export const NDV_MAIN_WIDTH = 360;
export const NDV_SIDE_MARGIN = 24;
export const NDV_INPUT_MARGIN = 80;
export const NDV_MIN_SIDE_WIDTH = 320;
/** Where the middle panel's centre starts, as a share of the view's width. */
export const NDV_DEFAULT_POSITION = 0.5;

export interface NdvLayout {
  /** Left edge of the middle panel. */
  mainLeft: number;
  /** The input panel spans [inputLeft, mainLeft); null for trigger nodes, which have none. */
  inputLeft: number | null;
  /** The output panel spans [outputLeft, outputRight). */
  outputLeft: number;
  outputRight: number;
  /** Whether the middle panel can be dragged further left or right. */
  canMoveLeft: boolean;
  canMoveRight: boolean;
}

/**
 * Places the three panels in a view `width` wide with the middle panel's centre at `position`
 * (a share of the width). Side panels keep at least their minimum width where the view allows;
 * the input side also keeps the input margin. Trigger nodes have no input panel: their middle
 * panel sits at the left margin and does not move.
 */
export function ndvLayout(width: number, position: number, hasInput: boolean): NdvLayout {
  const outputRight = width - NDV_SIDE_MARGIN;
  if (!hasInput) {
    const mainLeft = NDV_SIDE_MARGIN;
    return { mainLeft, inputLeft: null, outputLeft: mainLeft + NDV_MAIN_WIDTH, outputRight, canMoveLeft: false, canMoveRight: false };
  }
  const min = NDV_SIDE_MARGIN + Math.max(NDV_MIN_SIDE_WIDTH, NDV_INPUT_MARGIN);
  const max = Math.max(min, outputRight - NDV_MIN_SIDE_WIDTH - NDV_MAIN_WIDTH);
  const wanted = Math.round(width * position - NDV_MAIN_WIDTH / 2);
  const mainLeft = Math.min(max, Math.max(min, wanted));
  return {
    mainLeft,
    inputLeft: NDV_SIDE_MARGIN,
    outputLeft: mainLeft + NDV_MAIN_WIDTH,
    outputRight,
    canMoveLeft: mainLeft > min,
    canMoveRight: mainLeft < max,
  };
}

/** The position that puts the middle panel's left edge at `mainLeft`, kept within the limits. */
export function positionFor(width: number, mainLeft: number): number {
  if (width <= 0) return NDV_DEFAULT_POSITION;
  const placed = ndvLayout(width, (mainLeft + NDV_MAIN_WIDTH / 2) / width, true);
  return (placed.mainLeft + NDV_MAIN_WIDTH / 2) / width;
}
