import { createContext, useContext } from 'react';

/** Translates a catalogue key, with interpolation options. */
export type CanvasText = (key: string, options?: Record<string, unknown>) => string;

/**
 * A translator for the canvas that keeps the sentences it has made without options: hundreds of
 * cards and connections ask for the same few labels, and each lookup through i18next is a
 * noticeable share of drawing a large workflow. A new one is made per language (per `t`).
 */
export function rememberingText(t: CanvasText): CanvasText {
  const known = new Map<string, string>();
  return (key, options) => {
    if (options) return t(key, options);
    let text = known.get(key);
    if (text === undefined) {
      text = t(key);
      known.set(key, text);
    }
    return text;
  };
}

/** The canvas's translator, provided by the canvas so cards and connections need no i18n hook each. */
export const CanvasTextContext = createContext<CanvasText | null>(null);

export function useCanvasText(): CanvasText {
  const text = useContext(CanvasTextContext);
  if (!text) throw new Error('useCanvasText outside the canvas');
  return text;
}
