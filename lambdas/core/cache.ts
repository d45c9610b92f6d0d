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
 * A per-key version of cachedLoader with a size bound: client records, read on every
 * token request, are served from memory for a short while (a change shows within `ttlMs`).
 */
export function keyedCache<T>(load: (key: string) => Promise<T>, ttlMs: number, clock: Clock, maxEntries = 500) {
  const entries = new Map<string, { result: Promise<T>; until: number }>();
  return (key: string): Promise<T> => {
    const now = clock.now();
    const hit = entries.get(key);
    if (hit && now < hit.until) return hit.result;
    const result = load(key);
    const entry = { result, until: now + ttlMs };
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    result.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return result;
  };
}
