/** Zoom to fit: everything in view with a margin, never enlarged past 100 %. */
export const FIT_VIEW = { padding: 0.2, maxZoom: 1, duration: 150 };
