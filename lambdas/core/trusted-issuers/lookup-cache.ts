/**
 * The token path's trusted-issuer lookups, remembered per container (behaviour TRUST-2): a
 * record read is trusted for `foundMs` (so a deleted or changed issuer counts for at most that
 * long in a container that read it), an absent one for `missingMs` (so a new issuer counts
 * almost at once, and a flood of one untrusted issuer costs one read a second). A failed read is
 * not remembered.
 */
import type { Clock } from '../ports';
import type { TrustedIssuer } from './model';
import type { TrustedIssuerLookup } from './ports';

export interface LookupCacheTimes {
  readonly foundMs: number;
  readonly missingMs: number;
}

/** Behaviour TRUST-2: at most 30 s for a deletion or change to reach every container, 1 s for a creation. */
export const trustedIssuerCacheTimes: LookupCacheTimes = { foundMs: 30_000, missingMs: 1_000 };

/** How many lookups a container remembers; the oldest is forgotten first. */
const maxRemembered = 1000;

export function cachedTrustedIssuerLookup(
  lookup: TrustedIssuerLookup,
  clock: Clock,
  times: LookupCacheTimes = trustedIssuerCacheTimes,
): TrustedIssuerLookup {
  const remembered = new Map<string, { readonly result: Promise<TrustedIssuer | undefined>; until: number }>();
  const cached = (key: string, load: () => Promise<TrustedIssuer | undefined>) => {
    const now = clock.now();
    const known = remembered.get(key);
    // A clock that went back (a container's clock corrected) does not stretch what is kept.
    if (known && now < known.until && known.until - now <= times.foundMs) return known.result;
    const result = load();
    const entry = { result, until: now + times.missingMs };
    remembered.delete(key);
    remembered.set(key, entry);
    result.then(
      (found) => {
        if (found) entry.until = now + times.foundMs;
      },
      () => {
        if (remembered.get(key) === entry) remembered.delete(key);
      },
    );
    if (remembered.size > maxRemembered) remembered.delete(remembered.keys().next().value!);
    return result;
  };
  return {
    // JSON keys: an environment id and an issuer URL cannot run into each other.
    idJagIssuer: (environmentId, issuer) =>
      cached(JSON.stringify(['id-jag', environmentId, issuer]), () => lookup.idJagIssuer(environmentId, issuer)),
    workloadIssuer: (issuer) => cached(JSON.stringify(['workload', issuer]), () => lookup.workloadIssuer(issuer)),
  };
}
