/** A font-awesome icon reduced to what an SVG needs. */
export interface FontIcon {
  width: number;
  height: number;
  paths: string[];
}

/** The drawable part of a font-awesome icon definition (`{icon: [w, h, ligatures, unicode, paths]}`), or null. */
export function readFontIcon(value: unknown): FontIcon | null {
  if (typeof value !== 'object' || value === null || !('icon' in value)) return null;
  const icon = (value as { icon: unknown }).icon;
  if (!Array.isArray(icon) || icon.length < 5) return null;
  const [width, height, , , paths] = icon as [number, number, unknown, unknown, string | string[]];
  return { width, height, paths: Array.isArray(paths) ? paths : [paths] };
}

/** The font-awesome name of an `fa:<name>` node type icon, else null. */
export function fontIconName(icon: string | undefined): string | null {
  return icon?.startsWith('fa:') ? icon.slice(3) : null;
}

/**
 * Font icons by name, each loaded once per page however many cards draw it. `get` answers at once
 * for a loaded icon (undefined while it is not), so cards drawn after the load show the icon on
 * their first render; `subscribe` tells the readers of one name when it arrives. An icon that
 * fails to load counts as having none (null), so the card shows its fallback.
 */
export class FontIconCache {
  private readonly icons = new Map<string, FontIcon | null>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly listeners = new Map<string, Set<() => void>>();

  constructor(private readonly loadDefinition: (name: string) => Promise<unknown>) {}

  get(name: string): FontIcon | null | undefined {
    return this.icons.get(name);
  }

  /** Starts loading an icon unless it is loaded or on its way; resolves once it is settled. */
  load(name: string): Promise<void> {
    if (this.icons.has(name)) return Promise.resolve();
    let pending = this.pending.get(name);
    if (!pending) {
      pending = this.loadDefinition(name)
        .then(readFontIcon, () => null)
        .then((icon) => {
          this.icons.set(name, icon);
          this.pending.delete(name);
          for (const listener of [...(this.listeners.get(name) ?? [])]) listener();
        });
      this.pending.set(name, pending);
    }
    return pending;
  }

  subscribe(name: string, listener: () => void): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }
}
