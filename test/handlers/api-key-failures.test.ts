/**
 * Behaviour KEYX-3: malformed, unknown, revoked, expired and wrong-secret keys get the same
 * HTTP 401 invalid_client (same status, body and headers) and cost the same: exactly one
 * Argon2id verification each (a dummy one where no hash exists), so key ids cannot be
 * enumerated. DESIGN "Traps": a TTL-expired record still present is treated as absent.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { cryptoRandom } from '../../lambdas/adapters/system';
import { newApiKey } from '../../lambdas/core/api-keys/format';
import type { ApiKey } from '../../lambdas/core/model';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { getHasher } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { createKeyAs, exchangeKey, keyActivityOf, revokeKeyAs, useOutbox, type Result } from '../support/api-keys';
import { adminClientToken, createClient, createUser } from '../support/fixtures';
import { apiKeyItem } from '../../lambdas/adapters/dynamodb/api-key-items';

useOutbox();

const readCommands = new Set(['GetCommand', 'BatchGetCommand', 'QueryCommand']);

let admin: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
});

/** A key record written straight to the table, for states the admin API cannot create (already expired, past TTL). */
async function storedKeyWith(overrides: Partial<ApiKey>, ttl?: number): Promise<{ key: string; keyId: string; clientId: string }> {
  const client = await createClient({ scopes: ['read'] });
  const user = await createUser();
  const created = newApiKey(cryptoRandom);
  const record: ApiKey = {
    keyId: created.keyId,
    clientId: client.clientId,
    userId: user.id,
    scopes: ['read'],
    secretHash: await getHasher().hash(created.secret),
    createdAt: new Date(Date.now() - 86_400_000).toISOString(),
    createdBy: { kind: 'admin-client', clientId: 'tgc_test' },
    ...overrides,
  };
  const { db, tables } = getStorage();
  await db.send(new PutCommand({ TableName: tables.main, Item: { ...apiKeyItem(record), ...(ttl !== undefined ? { ttl } : {}) } }));
  return { key: created.key, keyId: created.keyId, clientId: client.clientId };
}

async function activeKey() {
  const client = await createClient({ scopes: ['read'] });
  const user = await createUser();
  const created = await createKeyAs(admin, client.clientId, { userId: user.id });
  return { key: String(created.body.api_key), keyId: String(created.body.key_id), clientId: client.clientId };
}

interface Case {
  readonly name: string;
  readonly key: string;
  readonly reason: RegExp;
  readonly clientId?: string;
}

async function cases(): Promise<Case[]> {
  const unknownId = newApiKey(cryptoRandom).key;
  const revoked = await activeKey();
  expect((await exchangeKey({ bearer: revoked.key })).status).toBe(200); // it worked, and is now in the cache
  expect((await revokeKeyAs(admin, revoked.clientId, revoked.keyId)).status).toBe(200);
  const revokedUncached = await activeKey();
  expect((await revokeKeyAs(admin, revokedUncached.clientId, revokedUncached.keyId)).status).toBe(200);
  const expired = await storedKeyWith({ expiresAt: new Date(Date.now() - 1000).toISOString() });
  const wrong = await activeKey();
  const pastTtl = await storedKeyWith({ revokedAt: new Date(Date.now() - 2000).toISOString() }, Math.floor(Date.now() / 1000) - 1);
  return [
    { name: 'malformed (bad prefix)', key: `xyz_0123456789abcdef_${'A'.repeat(43)}`, reason: /malformed/ },
    { name: 'malformed (short secret)', key: 'tgk_0123456789abcdef_short', reason: /malformed/ },
    { name: 'malformed (upper-case key id)', key: `tgk_0123456789ABCDEF_${'A'.repeat(43)}`, reason: /malformed/ },
    { name: 'unknown key id', key: unknownId, reason: /unknown key id/ },
    { name: 'revoked (cached before)', key: revoked.key, reason: /revoked at/, clientId: revoked.clientId },
    { name: 'revoked (never used)', key: revokedUncached.key, reason: /revoked at/, clientId: revokedUncached.clientId },
    { name: 'expired', key: expired.key, reason: /expired at/, clientId: expired.clientId },
    { name: 'wrong secret', key: `tgk_${wrong.keyId}_${'x'.repeat(43)}`, reason: /wrong secret/, clientId: wrong.clientId },
    { name: 'past its TTL, not yet deleted', key: pastTtl.key, reason: /unknown key id/ },
  ];
}

describe('behaviour KEYX-3: every bad key gets the identical 401 invalid_client', () => {
  let all: Case[];
  let results: Result[];
  const hashing = { verify: 0, dummy: 0 };
  const perCase: number[] = [];
  const readsPerCase: number[] = [];

  beforeAll(async () => {
    all = await cases();
    const verify = jest.spyOn(getHasher(), 'verify');
    const dummy = jest.spyOn(getHasher(), 'verifyDummy');
    const send = jest.spyOn(getStorage().db, 'send');
    const reads = () => send.mock.calls.filter(([command]) => readCommands.has(command.constructor.name)).length;
    results = [];
    for (const c of all) {
      const before = verify.mock.calls.length + dummy.mock.calls.length;
      const readsBefore = reads();
      results.push(await exchangeKey({ bearer: c.key }));
      perCase.push(verify.mock.calls.length + dummy.mock.calls.length - before);
      readsPerCase.push(reads() - readsBefore);
    }
    send.mockRestore();
    hashing.verify = verify.mock.calls.length;
    hashing.dummy = dummy.mock.calls.length;
    verify.mockRestore();
    dummy.mockRestore();
  });

  it('same status 401 and error invalid_client for malformed, unknown, revoked, expired and wrong-secret keys', () => {
    for (const r of results) {
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    }
  });

  it('same body, byte for byte', () => {
    expect(new Set(results.map((r) => r.result.body)).size).toBe(1);
    expect(results[0]!.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
  });

  it('same headers, name and value', () => {
    for (const r of results) expect(r.result.headers).toEqual(results[0]!.result.headers);
  });

  it('same work: exactly one Argon2id verification per failure, real or dummy (DESIGN: timing)', () => {
    expect(perCase).toEqual(all.map(() => 1));
    expect(hashing.dummy).toBeGreaterThanOrEqual(5); // malformed x3, unknown, past-TTL, cached revoked
  });

  it('same reads: none for a malformed key, one DynamoDB round trip for every other (DESIGN: timing)', () => {
    expect(readsPerCase).toEqual(all.map((c) => (c.name.startsWith('malformed') ? 0 : 1)));
  });

  it('the activity log records the real reason of each (behaviour LOG-2)', async () => {
    for (const c of all.filter((c) => c.clientId)) {
      const rows = await keyActivityOf(c.clientId!);
      const failures = rows.filter((r) => !r.success);
      expect(failures.at(-1)?.reason).toMatch(c.reason);
    }
  });
});

it('a record past its TTL is absent to the store, before DynamoDB deletes it (DESIGN: TTL deletes late)', async () => {
  const { keyId } = await storedKeyWith({ revokedAt: new Date(Date.now() - 2000).toISOString() }, Math.floor(Date.now() / 1000) - 1);
  expect(await getApiKeyStore().get(keyId)).toBeUndefined();
});

describe('behaviour KEYX-3: a malformed key in the body fails like any other bad key', () => {
  it.each([
    ['an oversized string', JSON.stringify({ api_key: 'x'.repeat(600) })],
    ['a number', JSON.stringify({ api_key: 42 })],
    ['an object', JSON.stringify({ api_key: { nested: true } })],
  ])('%s: 401 invalid_client, not a 400 of its own', async (_case, rawBody) => {
    const result = await exchangeKey({ rawBody, headers: { 'Content-Type': 'application/json' } });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
  });
});
