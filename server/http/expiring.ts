/** Entries past this many start the map over: the caches stay bounded whatever the keys. */
const MAX_ENTRIES = 10_000;

export interface Entry<V> {
  readonly value: V;
  /** Valid while `now() <= until`. */
  readonly until: number;
}

/** A map whose entries expire; `load` fills a missing or expired entry for `ttlMs`. */
export function expiringMap<V>(now: () => number) {
  const entries = new Map<string, Entry<V>>();
  const map = {
    get(key: string): Entry<V> | undefined {
      const entry = entries.get(key);
      return entry !== undefined && entry.until >= now() ? entry : undefined;
    },
    set(key: string, value: V, until: number): Entry<V> {
      if (entries.size > MAX_ENTRIES) entries.clear();
      const entry = { value, until };
      entries.set(key, entry);
      return entry;
    },
    async load(key: string, ttlMs: number, load: () => Promise<V>): Promise<Entry<V>> {
      return map.get(key) ?? map.set(key, await load(), now() + ttlMs);
    },
    /** Entries held, expired ones included. */
    get size(): number {
      return entries.size;
    },
    /**
     * Drops the expired entries (the idle gateway's rule, lifecycle/idle-memory.ts): `get` no
     * longer answers them, yet without this they stay until the map fills, for as long as the
     * gateway is quiet (a verified credential's key holds its secret).
     */
    release(): void {
      const t = now();
      for (const [key, entry] of entries) if (entry.until < t) entries.delete(key);
    },
  };
  return map;
}
