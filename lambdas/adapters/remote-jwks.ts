/**
 * A signer's JWKS fetched from its `jwks_uri` (RFC 7591 2), through the guarded fetcher of client
 * metadata documents (public addresses only, no redirects, a time limit) with a larger size cap,
 * and kept per URL in this container:
 * - fresh for the response's Cache-Control `max-age`, held between `minFreshSeconds` (a signer
 *   saying `no-store` does not get fetched on every request) and `maxFreshSeconds` (a rotated-out
 *   key is trusted at most a day), `defaultFreshSeconds` without one;
 * - refetched before its time when an assertion names a key the kept set lacks (the signer rotated),
 *   at most once per `unknownKeyCooldownSeconds`, so forged `kid`s cannot make us hammer the host;
 * - served stale for up to `staleSeconds` past its freshness while the host is unreachable, so a
 *   short outage of the signer's host does not lock it out; a failed fetch is not retried for
 *   `failureBackoffSeconds`.
 */
import type { Clock } from '../core/ports';
import type { FetchedDocument } from './metadata-document-fetcher';

export const remoteJwksLimits = {
  /** A JWKS of a few RSA keys with certificate chains passes 5 KiB; 64 KiB holds dozens. */
  maxBytes: 64 * 1024,
  maxKeys: 100,
  minFreshSeconds: 60,
  defaultFreshSeconds: 300,
  maxFreshSeconds: 24 * 60 * 60,
  unknownKeyCooldownSeconds: 60,
  staleSeconds: 60 * 60,
  failureBackoffSeconds: 10,
  /** URLs kept per container; the least recently fetched goes first. */
  maxEntries: 500,
} as const;

export interface JsonWebKeySet {
  readonly keys: readonly Record<string, unknown>[];
}

export class RemoteJwksUnavailable extends Error {
  override name = 'RemoteJwksUnavailable';
}

/** Fetches a URL with the guards of metadata-document-fetcher.ts and the given size cap. */
export type JwksFetch = (url: string, maxBytes: number) => Promise<FetchedDocument>;

interface Entry {
  jwks?: JsonWebKeySet;
  fetchedAt: number;
  freshUntil: number;
  lastAttempt: number;
  failedAt?: number;
  inFlight?: Promise<JsonWebKeySet>;
}

/** Seconds of freshness a Cache-Control header grants, within the bounds. */
export function freshSecondsOf(cacheControl: string | undefined, limits: typeof remoteJwksLimits = remoteJwksLimits): number {
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d+)"?/i.exec(cacheControl ?? '');
  const asked = /\b(no-store|no-cache)\b/i.test(cacheControl ?? '') ? 0 : maxAge ? Number(maxAge[1]) : limits.defaultFreshSeconds;
  return Math.min(Math.max(asked, limits.minFreshSeconds), limits.maxFreshSeconds);
}

function jwksOf(body: unknown, maxKeys: number): JsonWebKeySet {
  const keys = (body as { keys?: unknown } | null)?.keys;
  if (
    !Array.isArray(keys) ||
    keys.length > maxKeys ||
    !keys.every((key) => key !== null && typeof key === 'object' && !Array.isArray(key))
  ) {
    throw new RemoteJwksUnavailable('is not a JSON Web Key Set');
  }
  return { keys };
}

export class RemoteJwksCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly fetch: JwksFetch,
    private readonly clock: Clock,
    private readonly limits: typeof remoteJwksLimits = remoteJwksLimits,
  ) {}

  /** The key set at `url`; `lacksKey` when the kept set had no key for an assertion. Throws RemoteJwksUnavailable. */
  async get(url: string, lacksKey = false): Promise<JsonWebKeySet> {
    const now = this.clock.now() / 1000;
    const entry = this.entries.get(url);
    if (entry?.inFlight) return entry.inFlight;
    if (entry?.jwks && now < entry.freshUntil) {
      if (!lacksKey || now - entry.lastAttempt < this.limits.unknownKeyCooldownSeconds) return entry.jwks;
    }
    if (entry?.failedAt !== undefined && now - entry.failedAt < this.limits.failureBackoffSeconds) return this.staleOrFail(entry, now);
    return this.refetch(url, entry, now);
  }

  private staleOrFail(entry: Entry, now: number, cause?: unknown): JsonWebKeySet {
    if (entry.jwks && now < entry.freshUntil + this.limits.staleSeconds) return entry.jwks;
    throw cause instanceof RemoteJwksUnavailable
      ? cause
      : new RemoteJwksUnavailable(cause instanceof Error ? cause.message : 'is unreachable');
  }

  private refetch(url: string, previous: Entry | undefined, now: number): Promise<JsonWebKeySet> {
    const entry: Entry = previous ?? { fetchedAt: 0, freshUntil: 0, lastAttempt: now };
    entry.lastAttempt = now;
    this.keep(url, entry);
    // One fetch per URL at a time: concurrent requests of a container share it.
    entry.inFlight = this.fetch(url, this.limits.maxBytes)
      .then((fetched) => {
        const jwks = jwksOf(fetched.body, this.limits.maxKeys);
        const at = this.clock.now() / 1000;
        Object.assign(entry, {
          jwks,
          fetchedAt: at,
          freshUntil: at + freshSecondsOf(fetched.cacheControl, this.limits),
          failedAt: undefined,
        });
        return jwks;
      })
      .catch((error: unknown) => {
        entry.failedAt = this.clock.now() / 1000;
        return this.staleOrFail(entry, entry.failedAt, error);
      })
      .finally(() => {
        entry.inFlight = undefined;
      });
    return entry.inFlight;
  }

  private keep(url: string, entry: Entry): void {
    this.entries.delete(url);
    this.entries.set(url, entry);
    if (this.entries.size > this.limits.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
