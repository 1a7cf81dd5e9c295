/** Fit: everything in view with a margin, never enlarged past 100 % (as a workflow opens). */
export const FIT_VIEW_OPTIONS = { padding: 0.2, maxZoom: 1 };

/** Zoom to fit (button and shortcut): the same fit, animated. */
export const FIT_VIEW = { ...FIT_VIEW_OPTIONS, duration: 150 };

/** Following added nodes: them in view with room around, animated; never zoomed in past the current zoom. */
export const FOLLOW_VIEW = { padding: 0.3, duration: 200 };
