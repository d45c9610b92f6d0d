/**
 * The rotation state machine (lambdas/adapters/signing/rotation.ts), pure: key sets and
 * timestamps in, key sets out. The simulation at the end is the property the design
 * promises: a resource server holding a JWKS as stale as the caches allow never meets
 * a token signed by a key that JWKS lacks, however irregularly the job runs.
 */
import type { JWK } from 'jose';
import { createSigner, generateKeySet } from '../../../lambdas/adapters/signing/key-set';
import { lifetimes, longestSignedTokenLifetime } from '../../../lambdas/core/lifetimes';
import { mintAccessToken } from '../../../lambdas/core/tokens';
import { cryptoRandom } from '../../../lambdas/adapters/system';
import {
  addNextKey,
  longestTokenLifetimeMs,
  needsPublishing,
  parseRotatingKeySet,
  planRotation,
  rotationPolicy,
  signingKeyCacheMs,
  type RotatingKeySet,
} from '../../../lambdas/adapters/signing/rotation';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
const jwksTtl = 5 * minute;
const policy = rotationPolicy(30, jwksTtl);
/** The longest a resource server's JWKS can lag the bucket: CloudFront TTL + client max-age. */
const resourceServerStaleness = 2 * jwksTtl;

// Key material is irrelevant to the state machine; a placeholder JWK with a kid suffices.
const key = (kid: string): JWK => ({ kty: 'EC', kid, alg: 'ES256', d: 'x', use: 'sig' });
const t0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const kidsOf = (set: RotatingKeySet) => new Set(set.keys.map((k) => k.kid!));

function fresh(): RotatingKeySet {
  return { currentKid: 'k1', keys: [key('k1')], keyTimes: { k1: { publishedAt: iso(t0), activatedAt: iso(t0) } } };
}

describe('rotation policy', () => {
  test('publication lead covers CloudFront TTL, client max-age and the functions’ key cache; retirement covers key cache + token lifetime', () => {
    expect(policy.publishLeadMs).toBeGreaterThanOrEqual(2 * jwksTtl + signingKeyCacheMs);
    expect(policy.retireAfterMs).toBeGreaterThanOrEqual(signingKeyCacheMs + longestTokenLifetimeMs);
    expect(longestTokenLifetimeMs).toBe(hour);
    expect(policy.rotateAfterMs).toBe(30 * day);
  });
});

/** The rotation module as it would be built with some token lifetimes raised in lambdas/core/lifetimes.ts. */
function rotationWithLifetimes(
  raised: Partial<Record<keyof typeof lifetimes, number>>,
): typeof import('../../../lambdas/adapters/signing/rotation') {
  let loaded!: typeof import('../../../lambdas/adapters/signing/rotation');
  jest.isolateModules(() => {
    jest.doMock('../../../lambdas/core/lifetimes', () => {
      const actual = jest.requireActual<typeof import('../../../lambdas/core/lifetimes')>('../../../lambdas/core/lifetimes');
      return { ...actual, lifetimes: { ...actual.lifetimes, ...raised } };
    });
    loaded = require('../../../lambdas/adapters/signing/rotation');
  });
  jest.dontMock('../../../lambdas/core/lifetimes');
  return loaded;
}

describe('a key stays published for the longest lifetime of any token it signs (behaviour CLAIM-10, KEYX-6)', () => {
  test.each([
    ['API-key token', { apiKeyToken: 6 * 3600 }],
    ['access token', { accessToken: 2 * 3600 }],
    ['ID token', { idToken: 3 * 3600 }],
  ])('raising the %s lifetime keeps a retired key published until its last token expired', (_, raised) => {
    const rotation = rotationWithLifetimes(raised);
    const longest = Object.values(raised)[0]! * 1000;
    const raisedPolicy = rotation.rotationPolicy(30, jwksTtl);
    expect(raisedPolicy.retireAfterMs).toBeGreaterThanOrEqual(signingKeyCacheMs + longest);
    // A token signed at the last moment the key signed (from a function's cached key set) must still verify until it expires.
    const switched = t0 + 31 * day;
    const set: RotatingKeySet = {
      currentKid: 'k2',
      keys: [key('k1'), key('k2')],
      keyTimes: {
        k1: { publishedAt: iso(t0), activatedAt: iso(t0), deactivatedAt: iso(switched) },
        k2: { publishedAt: iso(t0), activatedAt: iso(switched) },
      },
    };
    const lastExpiry = switched + signingKeyCacheMs + longest;
    const plan = rotation.planRotation(set, { now: lastExpiry, publishedKids: new Set(['k1', 'k2']), policy: raisedPolicy });
    expect(plan.steps.filter((step) => step.kind === 'retire')).toEqual([]);
  });

  test('the default lifetimes: every signed token kind counts, an hour each today', () => {
    expect(longestTokenLifetimeMs).toBe(Math.max(lifetimes.accessToken, lifetimes.idToken, lifetimes.apiKeyToken) * 1000);
  });

  test('no access token is signed to live longer than rotation keeps its key published', async () => {
    const signer = await createSigner(await generateKeySet('ES256'));
    const deps = { issuer: 'https://issuer.example', signer, clock: { now: () => t0 }, random: cryptoRandom };
    const request = { clientId: 'tgc_a', scopes: [] };
    await expect(mintAccessToken({ ...request, lifetime: longestSignedTokenLifetime() }, deps)).resolves.toBeDefined();
    await expect(mintAccessToken({ ...request, lifetime: longestSignedTokenLifetime() + 1 }, deps)).rejects.toThrow(
      /longestSignedTokenLifetime/,
    );
  });
});

describe('planRotation steps', () => {
  test('a young current key: nothing to do', () => {
    const plan = planRotation(fresh(), { now: t0 + day, publishedKids: new Set(['k1']), policy });
    expect(plan.steps).toEqual([]);
    expect(plan.prepareNext).toBe(false);
  });

  test('a set from before rotation existed (no times) starts its age at the first run', () => {
    const legacy: RotatingKeySet = { currentKid: 'k1', keys: [key('k1')], keyTimes: {} };
    const plan = planRotation(legacy, { now: t0, publishedKids: new Set(['k1']), policy });
    expect(plan.steps.map((s) => s.kind)).toEqual(['record', 'record']);
    expect(plan.set.keyTimes.k1).toEqual({ publishedAt: iso(t0), activatedAt: iso(t0) });
    expect(plan.prepareNext).toBe(false);
  });

  test('after the rotation period the next key is added as pending: published, not signing', () => {
    const plan = planRotation(fresh(), { now: t0 + 30 * day, publishedKids: new Set(['k1']), policy });
    expect(plan.prepareNext).toBe(true);
    const next = addNextKey(plan.set, key('k2'), t0 + 30 * day);
    expect(next.currentKid).toBe('k1');
    expect([...kidsOf(next)]).toEqual(['k1', 'k2']);
    expect(needsPublishing(next, new Set(['k1']))).toBe(true);
  });

  test('the pending key signs only once it has been published for the lead time', () => {
    const now = t0 + 30 * day;
    const set = addNextKey(fresh(), key('k2'), now);
    const early = planRotation(set, { now: now + policy.publishLeadMs - 1, publishedKids: new Set(['k1', 'k2']), policy });
    expect(early.set.currentKid).toBe('k1');
    const due = planRotation(set, { now: now + policy.publishLeadMs, publishedKids: new Set(['k1', 'k2']), policy });
    expect(due.steps).toContainEqual({ kind: 'activate', kid: 'k2', previousKid: 'k1' });
    expect(due.set.currentKid).toBe('k2');
    expect(kidsOf(due.set)).toEqual(new Set(['k1', 'k2']));
  });

  test('a pending key missing from jwks.json is republished and its lead time restarts', () => {
    const now = t0 + 30 * day;
    const set = addNextKey(fresh(), key('k2'), now);
    const later = now + day;
    const plan = planRotation(set, { now: later, publishedKids: new Set(['k1']), policy });
    expect(plan.set.currentKid).toBe('k1');
    expect(plan.set.keyTimes.k2!.publishedAt).toBe(iso(later));
    expect(needsPublishing(plan.set, new Set(['k1']))).toBe(true);
  });

  test('the previous key stays published until every token it signed has expired, then leaves', () => {
    const switched = t0 + 31 * day;
    const set: RotatingKeySet = {
      currentKid: 'k2',
      keys: [key('k1'), key('k2')],
      keyTimes: {
        k1: { publishedAt: iso(t0), activatedAt: iso(t0), deactivatedAt: iso(switched) },
        k2: { publishedAt: iso(t0 + 30 * day), activatedAt: iso(switched) },
      },
    };
    const kept = planRotation(set, {
      now: switched + signingKeyCacheMs + longestTokenLifetimeMs,
      publishedKids: new Set(['k1', 'k2']),
      policy,
    });
    expect(kidsOf(kept.set)).toEqual(new Set(['k1', 'k2']));
    const removed = planRotation(set, { now: switched + policy.retireAfterMs, publishedKids: new Set(['k1', 'k2']), policy });
    expect(removed.steps).toContainEqual({ kind: 'retire', kid: 'k1' });
    expect(kidsOf(removed.set)).toEqual(new Set(['k2']));
    expect(removed.set.keyTimes).not.toHaveProperty('k1');
  });

  test('the current key is never retired, and no second key is prepared while one is pending', () => {
    const now = t0 + 90 * day;
    const set = addNextKey(fresh(), key('k2'), now);
    const plan = planRotation(set, { now: now + 1, publishedKids: new Set(['k1', 'k2']), policy });
    expect(plan.prepareNext).toBe(false);
    expect(plan.set.currentKid).toBe('k1');
  });

  test('a hand-edited currentKid: the key that stopped signing gets its retirement clock from now', () => {
    const set: RotatingKeySet = {
      currentKid: 'k2',
      keys: [key('k1'), key('k2')],
      keyTimes: { k1: { publishedAt: iso(t0), activatedAt: iso(t0) }, k2: { publishedAt: iso(t0) } },
    };
    const now = t0 + 40 * day;
    const plan = planRotation(set, { now, publishedKids: new Set(['k1', 'k2']), policy });
    expect(plan.set.keyTimes.k1!.deactivatedAt).toBe(iso(now));
    expect(plan.set.keyTimes.k2!.activatedAt).toBe(iso(now));
    expect(kidsOf(plan.set)).toEqual(new Set(['k1', 'k2']));
  });

  test('rotation times survive the stored JSON; other readers of the secret ignore them', () => {
    const set = addNextKey(fresh(), key('k2'), t0 + 30 * day);
    expect(parseRotatingKeySet(JSON.stringify(set))).toEqual(set);
  });
});

/** A deterministic pseudo-random sequence (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('simulation: a resource server never meets a token it cannot verify', () => {
  test.each([1, 2, 3, 4, 5])('two years of runs at irregular intervals (seed %i)', (seed) => {
    const next = random(seed);
    let stored = fresh();
    let published = new Set(['k1']);
    // Histories: when each kid became current / stopped being current in the secret,
    // and each version of the published kid set with the time it appeared.
    const activated = new Map<string, number>([['k1', t0]]);
    const deactivated = new Map<string, number>();
    const publications: { at: number; kids: Set<string> }[] = [{ at: t0 - day, kids: new Set(['k1']) }];
    let counter = 1;
    let now = t0;
    const end = t0 + 730 * day;
    let rotations = 0;
    while (now < end) {
      // Runs every few minutes to every few days; a run sometimes fails to upload jwks.json.
      now += Math.floor(1 + next() * (next() < 0.5 ? 30 * minute : 3 * day));
      const plan = planRotation(stored, { now, publishedKids: published, policy });
      let set = plan.set;
      if (plan.prepareNext) set = addNextKey(set, key(`k${++counter}`), now);
      for (const step of plan.steps) {
        if (step.kind === 'activate') {
          activated.set(step.kid, now);
          deactivated.set(step.previousKid, now);
          rotations += 1;
        }
      }
      stored = set; // the secret is written first
      if (needsPublishing(set, published) && next() > 0.1) {
        published = kidsOf(set);
        publications.push({ at: now, kids: published });
      }
    }
    expect(rotations).toBeGreaterThanOrEqual(20);

    const publishedAt = (time: number) => [...publications].reverse().find((p) => p.at <= time)!.kids;
    for (const [kid, from] of activated) {
      // Signing with `kid` happens from `from` until its set leaves every function's cache.
      const lastSigned = (deactivated.get(kid) ?? end) + signingKeyCacheMs;
      const lastVerified = lastSigned + longestTokenLifetimeMs;
      // Every JWKS a resource server may hold while such a token is alive was published
      // at or after (first signature - staleness); each must contain the kid.
      const windowStart = from - resourceServerStaleness - signingKeyCacheMs;
      const versions = publications.filter((p) => p.at > windowStart && p.at <= Math.min(lastVerified, end));
      versions.push({ at: windowStart, kids: publishedAt(windowStart) });
      for (const version of versions) {
        expect({ kid, at: version.at, present: version.kids.has(kid) }).toEqual({ kid, at: version.at, present: true });
      }
    }
  });
});
