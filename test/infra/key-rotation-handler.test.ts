import { CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { GetSecretValueCommand, PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { generateKeySet, publicJwks } from '../../lambdas/adapters/signing/key-set';
import { parseRotatingKeySet, rotationPolicy } from '../../lambdas/adapters/signing/rotation';
import type { SigningKeyTimes } from '../../lambdas/core/admin/signing-key';
import { createHandler, type RotationEnvironment } from '../../lambdas/jobs/rotate-signing-keys';

const env: RotationEnvironment = {
  SIGNING_KEY_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:signing-AbCdEf',
  JWKS_BUCKET: 'jwks-bucket',
  JWKS_OBJECT_KEY: 'jwks.json',
  JWKS_DISTRIBUTION_ID: 'E123',
  JWKS_MAX_AGE_SECONDS: '300',
  KEY_ROTATION_DAYS: '30',
  SIGNING_ALG: 'ES256',
  MAIN_TABLE_NAME: 'main',
};
const day = 24 * 3600_000;

/** Fakes of the three services, recording the order of writes. */
function world(secretValue: string, published: string | undefined) {
  const state = { secret: secretValue, object: published, writes: [] as string[], recorded: [] as SigningKeyTimes[], recordFails: false };
  const secrets = {
    send: async (c: unknown) => {
      if (c instanceof GetSecretValueCommand) return { SecretString: state.secret };
      if (c instanceof PutSecretValueCommand) {
        state.writes.push('secret');
        state.secret = c.input.SecretString!;
        return {};
      }
      throw new Error('unexpected');
    },
  };
  const s3 = {
    send: async (c: unknown) => {
      if (c instanceof GetObjectCommand) {
        if (state.object === undefined) throw Object.assign(new Error('missing'), { name: 'NoSuchKey' });
        return { Body: { transformToString: async () => state.object } };
      }
      if (c instanceof PutObjectCommand) {
        state.writes.push('jwks');
        state.object = String(c.input.Body);
        return {};
      }
      throw new Error('unexpected');
    },
  };
  const cloudfront = {
    send: async (c: unknown) => {
      if (!(c instanceof CreateInvalidationCommand)) throw new Error('unexpected');
      expect(c.input.InvalidationBatch!.Paths).toEqual({ Quantity: 1, Items: ['/jwks.json'] });
      state.writes.push('invalidate');
      return {};
    },
  };
  const counted: string[] = [];
  const metrics = { count: (metric: string) => void counted.push(metric) };
  const keyTimes = {
    record: async (times: SigningKeyTimes) => {
      if (state.recordFails) throw Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
      state.recorded.push(times);
    },
  };
  return {
    state,
    counted,
    run: (now: number, event?: unknown) =>
      createHandler({ secrets, s3, cloudfront, env: env as never, now: () => now, metrics, keyTimes } as never)(event),
  };
}

beforeEach(() => jest.spyOn(process.stdout, 'write').mockImplementation(() => true));
afterEach(() => jest.restoreAllMocks());

test('a full rotation across runs: publish beside, switch after the lead, drop the previous after its tokens expired', async () => {
  const initial = await generateKeySet('ES256');
  const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
  const t0 = Date.parse('2026-03-01T03:41:00Z');

  const first = await run(t0); // records the legacy set's times; jwks.json already right
  expect(first).toMatchObject({ currentKid: initial.currentKid, published: false });
  expect(state.writes).toEqual(['secret']);

  state.writes = [];
  const prepared = await run(t0 + 30 * day);
  expect(prepared.steps).toEqual(['prepare']);
  expect(prepared.currentKid).toBe(initial.currentKid);
  expect(prepared.kids).toHaveLength(2);
  expect(state.writes).toEqual(['secret', 'jwks', 'invalidate']);
  const nextKid = prepared.kids.find((k) => k !== initial.currentKid)!;
  expect(JSON.parse(state.object!).keys.map((k: any) => k.kid)).toEqual([initial.currentKid, nextKid]);
  expect(state.object).not.toContain('"d"');

  state.writes = [];
  const switched = await run(t0 + 31 * day);
  expect(switched).toMatchObject({ currentKid: nextKid, steps: ['activate'], published: false });
  expect(parseRotatingKeySet(state.secret)!.currentKid).toBe(nextKid);

  state.writes = [];
  const retired = await run(t0 + 32 * day);
  expect(retired).toMatchObject({ currentKid: nextKid, kids: [nextKid], steps: ['retire'], published: true });
  expect(state.writes).toEqual(['secret', 'jwks', 'invalidate']);
});

test('behaviour DASH-7: each run records the kids and times of the set it leaves for the dashboard, never key material', async () => {
  const initial = await generateKeySet('ES256');
  const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
  const t0 = Date.parse('2026-03-01T03:41:00Z');
  await run(t0);
  const lead = rotationPolicy(30, 300_000).publishLeadMs;
  expect(state.recorded).toEqual([
    {
      currentKid: initial.currentKid,
      activatedAt: new Date(t0).toISOString(),
      rotateAfterDays: 30,
      publishLeadMs: lead,
      recordedAt: new Date(t0).toISOString(),
    },
  ]);
  const prepared = await run(t0 + 30 * day);
  const nextKid = prepared.kids.find((kid) => kid !== initial.currentKid)!;
  expect(state.recorded[1]).toMatchObject({
    currentKid: initial.currentKid,
    activatedAt: new Date(t0).toISOString(),
    pending: { kid: nextKid, publishedAt: new Date(t0 + 30 * day).toISOString() },
  });
  await run(t0 + 31 * day);
  expect(state.recorded[2]).toMatchObject({ currentKid: nextKid, activatedAt: new Date(t0 + 31 * day).toISOString() });
  expect(state.recorded[2]!.pending).toBeUndefined();
  expect(JSON.stringify(state.recorded)).not.toMatch(/"(d|x|y|p|q)":/);
});

test('behaviour DASH-7: a record that cannot be written does not fail the rotation, which is done and counted', async () => {
  const initial = await generateKeySet('ES256');
  const { state, run, counted } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
  state.recordFails = true;
  const t0 = Date.parse('2026-03-01T03:41:00Z');
  await run(t0);
  const prepared = await run(t0 + 30 * day);
  expect(prepared.steps).toEqual(['prepare']);
  expect(counted).toEqual(['KeyRotationSucceeded', 'KeyRotationSucceeded']);
});

test('jwks.json missing: republished at once, and a pending key waits a full lead from then', async () => {
  const initial = await generateKeySet('ES256');
  const { state, run } = world(JSON.stringify(initial), undefined);
  const result = await run(Date.parse('2026-03-01T00:00:00Z'));
  expect(result.published).toBe(true);
  expect(JSON.parse(state.object!).keys[0].kid).toBe(initial.currentKid);
});

test('a secret without a key set fails the run (the deploy-time custom resource creates it)', async () => {
  const { run } = world('placeholder', undefined);
  await expect(run(Date.now())).rejects.toThrow(/no valid key set/);
});

describe('a key swapped under an existing kid in jwks.json (behaviour CUSTODY-5)', () => {
  /** jwks.json as published, with the key under `kid` replaced by another key that keeps the kid. */
  async function withSwappedKey(set: { keys: readonly JWK[] }, kid: string): Promise<string> {
    const impostor = (await generateKeySet('ES256')).keys[0]!;
    const keys = set.keys.map((key) => (key.kid === kid ? { ...impostor, kid } : key));
    return JSON.stringify(publicJwks({ currentKid: kid, keys }));
  }
  const thumbprints = async (document: string) =>
    Promise.all(
      (JSON.parse(document) as { keys: JWK[] }).keys.map(
        async (key): Promise<[string | undefined, string]> => [key.kid, await calculateJwkThumbprint(key)],
      ),
    );

  test('the current key: jwks.json is republished from the private set and invalidated, then the run fails so the alarm fires', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    await run(Date.parse('2026-03-01T03:41:00Z')); // records the legacy set's times
    state.object = await withSwappedKey(initial, initial.currentKid);
    state.writes = [];

    await expect(run(Date.parse('2026-03-02T03:41:00Z'))).rejects.toThrow(
      new RegExp(`jwks.json published a different key under kid ${initial.currentKid}.*republished`),
    );
    expect(state.writes).toEqual(['secret', 'jwks', 'invalidate']);
    expect(await thumbprints(state.object!)).toEqual([[initial.currentKid, initial.currentKid]]);
    expect(state.object).not.toContain('"d"');
  });

  test('a pending key: republished, and it signs only a full publication lead after the repair', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    const t0 = Date.parse('2026-03-01T03:41:00Z');
    await run(t0);
    const prepared = await run(t0 + 30 * day);
    const nextKid = prepared.kids.find((k) => k !== initial.currentKid)!;
    const set = parseRotatingKeySet(state.secret)!;
    state.object = await withSwappedKey(set, nextKid);

    const repairedAt = t0 + 30 * day + 12 * 3600_000;
    await expect(run(repairedAt)).rejects.toThrow(new RegExp(`under kid ${nextKid}`));
    expect(parseRotatingKeySet(state.secret)!.keyTimes[nextKid]!.publishedAt).toBe(new Date(repairedAt).toISOString());
    expect(new Map(await thumbprints(state.object!)).get(nextKid)).toBe(nextKid);
    // Long after its first publication, but less than a lead after the repair: not signing yet.
    const lead = rotationPolicy(30, 300_000).publishLeadMs;
    expect((await run(repairedAt + lead - 60_000)).currentKid).toBe(initial.currentKid);
    expect((await run(repairedAt + lead)).currentKid).toBe(nextKid);
  });

  test('a published kid the key set lacks, or an entry without a kid, is removed without failing the run', async () => {
    const initial = await generateKeySet('ES256');
    const extra = (await generateKeySet('ES256')).keys[0]!;
    const published = publicJwks({ currentKid: initial.currentKid, keys: [...initial.keys, extra] });
    published.keys.push({ kty: 'EC' });
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(published));
    const result = await run(Date.parse('2026-03-01T03:41:00Z'));
    expect(result.published).toBe(true);
    expect(await thumbprints(state.object!)).toEqual([[initial.currentKid, initial.currentKid]]);
  });
});

/** What EventBridge delivers for S3's own event on jwks.json (lib/key-change-watch.ts). */
const objectEvent = (detailType: 'Object Created' | 'Object Deleted') => ({
  source: 'aws.s3',
  'detail-type': detailType,
  detail: { bucket: { name: env.JWKS_BUCKET }, object: { key: env.JWKS_OBJECT_KEY } },
});

describe('behaviour CUSTODY-3: every write or delete of jwks.json runs the job, which fails on any difference from the key set', () => {
  const t0 = Date.parse('2026-03-01T03:41:00Z');

  test('a key added beside the real ones: republished without it, and the run fails so the alarm fires (the schedule alone repairs it quietly)', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    await run(t0);
    const intruder = (await generateKeySet('ES256')).keys[0]!;
    const tampered = JSON.stringify({
      keys: [...publicJwks(initial).keys, ...publicJwks({ currentKid: intruder.kid!, keys: [intruder] }).keys],
    });

    state.object = tampered;
    state.writes = [];
    await expect(run(t0 + 3600_000, objectEvent('Object Created'))).rejects.toThrow(/jwks.json was written or deleted.*republished/);
    expect(state.writes).toEqual(['jwks', 'invalidate']);
    expect((JSON.parse(state.object!) as { keys: JWK[] }).keys.map((key) => key.kid)).toEqual([initial.currentKid]);

    state.object = tampered;
    await expect(run(t0 + 2 * 3600_000)).resolves.toMatchObject({ published: true });
  });

  test('jwks.json deleted: republished from the key set, and the run fails', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    await run(t0);
    state.object = undefined;
    state.writes = [];
    await expect(run(t0 + 3600_000, objectEvent('Object Deleted'))).rejects.toThrow(/jwks.json was written or deleted/);
    // The secret too: a key found unpublished restarts its publication clock (behaviour CUSTODY-5).
    expect(state.writes).toEqual(['secret', 'jwks', 'invalidate']);
    expect(JSON.parse(state.object!)).toEqual(publicJwks(initial));
  });

  test('the publishers’ own writes agree with the key set: the run they trigger passes and writes nothing', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    await run(t0);
    const prepared = await run(t0 + 30 * day);
    expect(prepared.published).toBe(true);
    state.writes = [];
    await expect(run(t0 + 30 * day + 60_000, objectEvent('Object Created'))).resolves.toMatchObject({ published: false, swapped: [] });
    expect(state.writes).toEqual([]);
  });
});

test('behaviour OPS-3: every completed run counts one KeyRotationSucceeded heartbeat, whatever it did; a failed run counts none', async () => {
  const initial = await generateKeySet('ES256');
  const { counted, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
  const t0 = Date.parse('2026-03-01T03:41:00Z');
  await run(t0);
  await run(t0 + day); // nothing due
  await run(t0 + 30 * day); // prepare
  expect(counted).toEqual(['KeyRotationSucceeded', 'KeyRotationSucceeded', 'KeyRotationSucceeded']);

  const broken = world('placeholder', undefined);
  await expect(broken.run(t0)).rejects.toThrow();
  expect(broken.counted).toEqual([]);
});

test('behaviour OPS-3: the heartbeat reaches the logs as an embedded metric under the deployment’s namespace and service', async () => {
  const initial = await generateKeySet('ES256');
  const lines: string[] = [];
  (process.stdout.write as unknown as jest.Mock).mockImplementation((chunk: string) => {
    lines.push(String(chunk));
    return true;
  });
  const { createEmfMetrics } = await import('../../lambdas/adapters/emf-metrics');
  const { state } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
  const metrics = createEmfMetrics({ namespace: 'Acme/Auth', service: 'ServerA1B2' });
  const handler = createHandler({
    secrets: { send: async () => ({ SecretString: state.secret }) },
    s3: { send: async () => ({ Body: { transformToString: async () => state.object } }) },
    cloudfront: { send: async () => ({}) },
    env: env as never,
    now: () => Date.parse('2026-03-01T03:41:00Z'),
    metrics,
    keyTimes: { record: async () => {} },
  } as never);
  await handler();
  const documents = lines.filter((line) => line.includes('"_aws"')).map((line) => JSON.parse(line));
  expect(documents).toEqual([
    expect.objectContaining({
      KeyRotationSucceeded: 1,
      service: 'ServerA1B2',
      _aws: expect.objectContaining({
        CloudWatchMetrics: [expect.objectContaining({ Namespace: 'Acme/Auth', Dimensions: [['service']] })],
      }),
    }),
  ]);
});

describe('the emergency rotation (docs/deployment.md, "Emergency signing-key rotation")', () => {
  test('{"emergencyRotationOf": <current kid>}: a new key signs at once and is the only one published; every old key is gone', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    const t0 = Date.parse('2026-03-01T03:41:00Z');
    await run(t0); // records the set's times
    const prepared = await run(t0 + 30 * day); // a pending key beside the current one: it lived in the same secret
    expect(prepared.kids).toHaveLength(2);

    state.writes = [];
    const result = await run(t0 + 30 * day + 60_000, { emergencyRotationOf: initial.currentKid });
    expect(result.steps).toEqual(['emergency']);
    expect(result.kids).toEqual([result.currentKid]);
    expect(prepared.kids).not.toContain(result.currentKid);
    expect(state.writes).toEqual(['secret', 'jwks', 'invalidate']);
    expect(parseRotatingKeySet(state.secret)).toMatchObject({ currentKid: result.currentKid, keys: [{ kid: result.currentKid }] });
    const published = JSON.parse(state.object!).keys as JWK[];
    expect(published.map((k) => k.kid)).toEqual([result.currentKid]);
    expect(state.object).not.toContain('"d"');

    // Named kid no longer current (a retry, or a mistake): an ordinary run, nothing rotated again.
    state.writes = [];
    const again = await run(t0 + 30 * day + 120_000, { emergencyRotationOf: initial.currentKid });
    expect(again).toMatchObject({ currentKid: result.currentKid, published: false });
    expect(again.steps).not.toContain('emergency');
    expect(state.writes).not.toContain('jwks');
  });

  test('any other event, or an empty kid, never rotates out of turn', async () => {
    const initial = await generateKeySet('ES256');
    const { state, run } = world(JSON.stringify(initial), JSON.stringify(publicJwks(initial)));
    for (const event of [{}, { emergencyRotationOf: '' }, { emergencyRotationOf: 42 }, { source: 'aws.events' }]) {
      const result = await run(Date.parse('2026-03-01T03:41:00Z'), event);
      expect(result.currentKid).toBe(initial.currentKid);
      expect(result.steps).not.toContain('emergency');
    }
    expect(parseRotatingKeySet(state.secret)!.currentKid).toBe(initial.currentKid);
  });
});
