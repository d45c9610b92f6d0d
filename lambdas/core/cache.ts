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
