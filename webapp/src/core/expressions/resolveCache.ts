/**
 * Remembers answers per scope object (such as a workflow graph: same object, same data) and key for a
 * short time, so identical requests made while nothing changed share one call. A failed call is
 * forgotten at once.
 */
export class ResolveCache<S extends object, V> {
  private readonly scopes = new WeakMap<S, Map<string, { at: number; value: Promise<V> }>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(scope: S, key: string, load: () => Promise<V>): Promise<V> {
    let entries = this.scopes.get(scope);
    if (!entries) {
      entries = new Map();
      this.scopes.set(scope, entries);
    }
    const now = this.now();
    const hit = entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    const stored = entries;
    stored.set(key, { at: now, value });
    value.catch(() => {
      if (stored.get(key)?.value === value) stored.delete(key);
    });
    return value;
  }
}
