/**
 * Signing-key rotation as a pure state machine over the key set and timestamps; the
 * scheduled job (lambdas/jobs/rotate-signing-keys.ts) only does the I/O around it.
 *
 * A key moves through: pending (published, never signs) → current (signs) → previous
 * (published, no longer signs) → removed. Each run of the job applies every step that
 * is due, in this order:
 *   1. record  - a key missing from the published jwks.json is (re)published now and its
 *                publication clock restarts; a current key with no activation time
 *                (a set made before rotation existed) starts its age now.
 *   2. retire  - a previous key is removed once `retireAfterMs` passed since it stopped
 *                signing: functions may still sign with it from their cached set for
 *                `signingKeyCacheMs`, and its tokens live up to an hour after that.
 *   3. activate - the pending key becomes `currentKid` once it has been published for
 *                `publishLeadMs`: longer than a resource server's copy of the JWKS can be
 *                stale (CloudFront TTL plus the clients' max-age) and than the service's
 *                own verifiers cache the key set.
 *   4. prepare - when the current key is older than `rotateAfterMs` and nothing is pending,
 *                the caller generates the next key and adds it (addNextKey) as pending.
 * So a resource server never meets a token signed by a key its cached JWKS lacks: a key
 * signs only after every cache has had time to pick it up, and stays published until
 * every token it signed has expired.
 *
 * "Published" means published as it is in the set: a kid whose key in jwks.json is another key
 * (swapped under an existing kid, behaviour CUSTODY-5) counts as missing (verifyPublishedKeys).
 */
import { calculateJwkThumbprint, type JWK } from 'jose';
import { lifetimes, longestSignedTokenLifetime } from '../../core/lifetimes';
import { parseKeySet, type SigningKeySet } from './key-set';

/** How long a function keeps the key set it loaded (lambdas/wiring/signing.ts). */
export const signingKeyCacheMs = 5 * 60_000;
/** The longest-lived JWT this service signs: access, ID and key-minted tokens (behaviour CLAIM-10). */
export const longestTokenLifetimeMs = longestSignedTokenLifetime(lifetimes) * 1000;
/** Slack for clock skew, CloudFront invalidation and a resource server's clock tolerance. */
export const rotationMarginMs = 5 * 60_000;

export interface KeyTimes {
  /** ISO time the key was (last) put into the published jwks.json. */
  readonly publishedAt?: string;
  /** ISO time it became `currentKid`. */
  readonly activatedAt?: string;
  /** ISO time it stopped being `currentKid`. */
  readonly deactivatedAt?: string;
}

/** The stored key set plus rotation times; the extra field is ignored by everything else. */
export interface RotatingKeySet extends SigningKeySet {
  readonly keyTimes: Readonly<Record<string, KeyTimes>>;
}

export interface RotationPolicy {
  /** Age of the current key after which the next one is prepared. */
  readonly rotateAfterMs: number;
  /** Minimum time a key is published before it signs. */
  readonly publishLeadMs: number;
  /** Minimum time a key stays published after it stopped signing. */
  readonly retireAfterMs: number;
}

/**
 * The policy for a JWKS cached `jwksCacheTtlMs` by CloudFront and, per the object's
 * max-age, by clients again after that (2 × TTL of staleness, invalidation aside). A key
 * stays published after it stopped signing for the longest lifetime of any token it signs,
 * key-minted ones included (behaviour CLAIM-10: left out, a longer API-key token lifetime would
 * outlive its key in the JWKS).
 */
export function rotationPolicy(rotateAfterDays: number, jwksCacheTtlMs: number): RotationPolicy {
  return {
    rotateAfterMs: rotateAfterDays * 24 * 3600_000,
    publishLeadMs: 2 * jwksCacheTtlMs + signingKeyCacheMs + rotationMarginMs,
    retireAfterMs: signingKeyCacheMs + longestTokenLifetimeMs + rotationMarginMs,
  };
}

export type RotationStep =
  | { readonly kind: 'record'; readonly kid: string; readonly what: 'published' | 'activated' | 'deactivated' }
  | { readonly kind: 'retire'; readonly kid: string }
  | { readonly kind: 'activate'; readonly kid: string; readonly previousKid: string }
  | { readonly kind: 'prepare' }
  | { readonly kind: 'emergency'; readonly kid: string; readonly droppedKids: readonly string[] };

export interface RotationPlan {
  /** The key set after the due steps (without a new key: see addNextKey). */
  readonly set: RotatingKeySet;
  readonly steps: readonly RotationStep[];
  /** The caller must generate the next key and call addNextKey. */
  readonly prepareNext: boolean;
}

export function parseRotatingKeySet(text: string | undefined): RotatingKeySet | undefined {
  const set = parseKeySet(text);
  if (!set) return undefined;
  const raw = (JSON.parse(text!) as { keyTimes?: unknown }).keyTimes;
  const keyTimes: Record<string, KeyTimes> = {};
  if (raw && typeof raw === 'object') {
    for (const key of set.keys) {
      const times = (raw as Record<string, unknown>)[key.kid!];
      if (!times || typeof times !== 'object') continue;
      const pick = (name: keyof KeyTimes) => {
        const value = (times as Record<string, unknown>)[name];
        return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? { [name]: value } : {};
      };
      keyTimes[key.kid!] = { ...pick('publishedAt'), ...pick('activatedAt'), ...pick('deactivatedAt') };
    }
  }
  return { currentKid: set.currentKid, keys: set.keys, keyTimes };
}

const at = (iso: string | undefined): number | undefined => (iso === undefined ? undefined : Date.parse(iso));

/**
 * The steps due at `now`, given the kids found in the published jwks.json.
 * Pure: no clock, no randomness, no I/O.
 */
export function planRotation(
  input: RotatingKeySet,
  { now, publishedKids, policy }: { readonly now: number; readonly publishedKids: ReadonlySet<string>; readonly policy: RotationPolicy },
): RotationPlan {
  const iso = new Date(now).toISOString();
  const steps: RotationStep[] = [];
  const times: Record<string, KeyTimes> = {};
  for (const key of input.keys) times[key.kid!] = { ...input.keyTimes[key.kid!] };
  let keys = [...input.keys];
  let currentKid = input.currentKid;

  // 1. record
  for (const key of keys) {
    const kid = key.kid!;
    const t = times[kid]!;
    if (!publishedKids.has(kid) || t.publishedAt === undefined) {
      times[kid] = { ...times[kid], publishedAt: iso };
      steps.push({ kind: 'record', kid, what: 'published' });
    }
    if (kid === currentKid && t.activatedAt === undefined) {
      times[kid] = { ...times[kid], activatedAt: iso };
      steps.push({ kind: 'record', kid, what: 'activated' });
    }
    // Signed once but no longer current, with no record of when it stopped (a hand
    // edit of currentKid): count its retirement from now.
    if (kid !== currentKid && t.activatedAt !== undefined && t.deactivatedAt === undefined) {
      times[kid] = { ...times[kid], deactivatedAt: iso };
      steps.push({ kind: 'record', kid, what: 'deactivated' });
    }
  }

  // 2. retire
  for (const key of keys) {
    const kid = key.kid!;
    const stopped = at(times[kid]!.deactivatedAt);
    if (kid !== currentKid && stopped !== undefined && now >= stopped + policy.retireAfterMs) {
      steps.push({ kind: 'retire', kid });
      delete times[kid];
    }
  }
  keys = keys.filter((key) => key.kid! in times);

  // 3. activate: the longest-published pending key that has waited long enough.
  const pending = keys
    .filter((key) => key.kid !== currentKid && times[key.kid!]!.activatedAt === undefined)
    .sort((a, b) => at(times[a.kid!]!.publishedAt)! - at(times[b.kid!]!.publishedAt)!);
  const ready = pending.find((key) => now >= at(times[key.kid!]!.publishedAt)! + policy.publishLeadMs);
  if (ready) {
    const previousKid = currentKid;
    times[previousKid] = { ...times[previousKid], deactivatedAt: iso };
    times[ready.kid!] = { ...times[ready.kid!], activatedAt: iso };
    currentKid = ready.kid!;
    steps.push({ kind: 'activate', kid: currentKid, previousKid });
  }

  // 4. prepare
  const stillPending = keys.some((key) => key.kid !== currentKid && times[key.kid!]!.activatedAt === undefined);
  const age = now - at(times[currentKid]!.activatedAt)!;
  const prepareNext = !stillPending && age >= policy.rotateAfterMs;
  if (prepareNext) steps.push({ kind: 'prepare' });

  return { set: { currentKid, keys, keyTimes: times }, steps, prepareNext };
}

/**
 * The emergency rotation (docs/deployment.md, "Emergency signing-key rotation"): `newKey` signs
 * at once and is the only key left, so nothing the exposed set signed verifies once the caches
 * have the new jwks.json. Every key goes, not only the current one: they all lived in the one
 * secret. It skips the publication lead on purpose: a resource server meeting the new kid before
 * its cached JWKS has it must fetch again, which is the price of dropping the exposed key now.
 * Undefined when `exposedKid` is not the current key: already rotated (a retried invocation) or a
 * mistyped kid, so an accidental or repeated invocation never rotates twice.
 */
export function emergencyRotation(
  set: RotatingKeySet,
  { exposedKid, newKey, now }: { readonly exposedKid: string; readonly newKey: JWK; readonly now: number },
): { readonly set: RotatingKeySet; readonly step: RotationStep } | undefined {
  if (set.currentKid !== exposedKid) return undefined;
  if (!newKey.kid || set.keys.some((k) => k.kid === newKey.kid)) throw new Error('the new key needs a new kid');
  const iso = new Date(now).toISOString();
  return {
    set: { currentKid: newKey.kid, keys: [newKey], keyTimes: { [newKey.kid]: { publishedAt: iso, activatedAt: iso } } },
    step: { kind: 'emergency', kid: newKey.kid, droppedKids: set.keys.map((k) => k.kid!) },
  };
}

/** Adds a freshly generated key as pending, published as of `now` (the caller publishes it next). */
export function addNextKey(set: RotatingKeySet, key: JWK, now: number): RotatingKeySet {
  if (!key.kid || set.keys.some((k) => k.kid === key.kid)) throw new Error('the next key needs a new kid');
  return {
    currentKid: set.currentKid,
    keys: [...set.keys, key],
    keyTimes: { ...set.keyTimes, [key.kid]: { publishedAt: new Date(now).toISOString() } },
  };
}

/** True when jwks.json must be rewritten: its kids differ from the set's. */
export function needsPublishing(set: SigningKeySet, publishedKids: ReadonlySet<string>): boolean {
  return set.keys.length !== publishedKids.size || set.keys.some((key) => !publishedKids.has(key.kid!));
}

/** What the published jwks.json holds, checked against the key set (verifyPublishedKeys). */
export interface PublishedKeysCheck {
  /** Kids of the set whose key jwks.json publishes unchanged: the `publishedKids` of planRotation. */
  readonly kids: ReadonlySet<string>;
  /** Kids of the set under which jwks.json publishes another key. */
  readonly swapped: readonly string[];
  /** Entries that publish no key of the set: kids the set lacks, entries without a kid or key, repeats. */
  readonly foreign: number;
}

/**
 * Compares each key of the published jwks.json with the public half of the private key under
 * the same kid, by RFC 7638 thumbprint (behaviour CUSTODY-5): comparing kids alone would take a
 * key swapped under an existing kid for the real one, and a resource server would accept tokens
 * signed by whoever holds the swapped key's private half.
 */
export async function verifyPublishedKeys(set: SigningKeySet, published: readonly unknown[]): Promise<PublishedKeysCheck> {
  const expected = new Map<string, string>();
  for (const key of set.keys) expected.set(key.kid!, await calculateJwkThumbprint(key));
  const kids = new Set<string>();
  const swapped: string[] = [];
  let foreign = 0;
  for (const entry of published) {
    const kid = typeof entry === 'object' && entry !== null ? (entry as { kid?: unknown }).kid : undefined;
    const want = typeof kid === 'string' ? expected.get(kid) : undefined;
    if (want === undefined || kids.has(kid as string)) {
      foreign += 1;
      continue;
    }
    const found = await calculateJwkThumbprint(entry as JWK).catch(() => undefined);
    if (found === want) kids.add(kid as string);
    else swapped.push(kid as string);
  }
  return { kids, swapped, foreign };
}
