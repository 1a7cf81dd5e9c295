/**
 * One lazy chunk per icon file of the solid set (aliases included), so the editor fetches only
 * the icons its node types use. This table of loaders is itself a lazy chunk of NodeIcon.
 */
const ICON_FILES = import.meta.glob<{ definition: unknown }>('./fa*.js', { base: '../../node_modules/@fortawesome/free-solid-svg-icons/' });

/** `exchange-alt` → `faExchangeAlt`, the file and export name of the icon. */
export function exportName(name: string): string {
  return `fa${name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}`;
}

/** The icon definition of a font-awesome name, or null when the set has no such icon. */
export async function loadIconDefinition(name: string): Promise<unknown> {
  const load = ICON_FILES[`./${exportName(name)}.js`];
  return load ? (await load()).definition : null;
}
