import { FontIconCache, fontIconName } from '@/core/icons/fontIcons';
import type { NodeTypeDescription } from '@/core/workflow/nodeTypes';

type IconTable = { loadIconDefinition(name: string): Promise<unknown> };

let iconTable: Promise<IconTable> | null = null;

/** The (lazy) table of icon loaders, fetched once. */
function loadIconTable(): Promise<IconTable> {
  if (!iconTable) {
    iconTable = import('./iconFiles');
    // A failed fetch is tried again by the next icon.
    iconTable.catch(() => {
      iconTable = null;
    });
  }
  return iconTable;
}

/** Starts fetching the icon loader table, for an editor about to draw nodes. */
export function prefetchIconTable(): void {
  loadIconTable().catch(() => undefined);
}

/** One load per icon name for the whole page, however many cards draw it. */
export const fontIcons = new FontIconCache((name) => loadIconTable().then((module) => module.loadIconDefinition(name)));

/**
 * Starts loading the font icons of these types; resolves when they are settled. Cards drawn after
 * that show their icon on the first render instead of drawing twice.
 */
export function preloadNodeIcons(types: Iterable<NodeTypeDescription | undefined>): Promise<void> {
  const names = new Set<string>();
  for (const type of types) {
    const name = fontIconName(type?.icon);
    if (name !== null) names.add(name);
  }
  return Promise.all([...names].map((name) => fontIcons.load(name))).then(() => undefined);
}
