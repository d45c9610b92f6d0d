import type { Clock } from './ports';

/**
 * Remembers the last result of `load` for `ttlMs`, sharing one in-flight load between
 * concurrent callers. A failed load is not remembered.
 */
export function cachedLoader<T>(load: () => Promise<T>, ttlMs: number, clock: Clock): () => Promise<T> {
  let value: { result: Promise<T>; until: number } | undefined;
  return () => {
    const now = clock.now();
    if (value && now < value.until) return value.result;
    const result = load();
    const entry = { result, until: now + ttlMs };
    value = entry;
    result.catch(() => {
      if (value === entry) value = undefined;
    });
    return result;
  };
}

/**
 * The names a catalog holds, for issuance (behaviour ADMIN-18). The listed catalog is kept for
 * `ttlMs`, so a deleted entry is trusted at most that much longer. A name the kept list lacks
 * is looked up by itself (`lookup`, strongly consistent), so an entry created a moment ago
 * counts at once; a name found missing is not looked up again for `missRefreshMs`, so a client
 * naming a deleted scope costs at most one lookup a second. A failed load is not kept.
 */
export function catalogNames(
  list: () => Promise<readonly { readonly name: string }[]>,
  lookup: (names: readonly string[]) => Promise<ReadonlySet<string>>,
  clock: Clock,
  ttlMs: number,
  missRefreshMs: number,
): (names: readonly string[]) => Promise<ReadonlySet<string>> {
  let kept: { names: Promise<Set<string>>; at: number } | undefined;
  const missing = new Map<string, number>();
  return async (names) => {
    const now = clock.now();
    // A clock that went back (a container's clock corrected) does not stretch what is kept.
    if (!kept || now < kept.at || now >= kept.at + ttlMs) {
      const entry = { names: list().then((items) => new Set(items.map((item) => item.name))), at: now };
      kept = entry;
      missing.clear();
      entry.names.catch(() => {
        if (kept === entry) kept = undefined;
      });
    }
    const known = await kept.names;
    const unknown = names.filter((name) => !known.has(name) && !((missing.get(name) ?? 0) > now));
    if (unknown.length === 0) return known;
    const found = await lookup(unknown);
    for (const name of unknown) {
      if (found.has(name)) known.add(name);
      else missing.set(name, now + missRefreshMs);
    }
    if (missing.size > 1000) missing.delete(missing.keys().next().value!);
    return known;
  };
}
