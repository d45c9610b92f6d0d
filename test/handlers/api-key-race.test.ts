/**
 * A revocation racing an exchange (behaviour KEY-8 "effective on the next exchange"). Every check
 * is made on the records the exchange reads, strongly consistent: a revocation that
 * committed before that read is seen; an exchange that read the key first completes, like
 * one that finished a moment earlier, and its token is recorded with its api_key_id (and,
 * as every minted token, stays valid for its hour). The same holds for an ungrant, a user
 * deletion or a test-user flag that commits between the read and the write
 * (docs/storage-schema.md, "Why not one transaction").
 */
import { decodeJwt } from 'jose';
import { exchangeApiKey } from '../../lambdas/core/api-keys/exchange';
import type { ApiKeyExchangeStore } from '../../lambdas/core/api-keys/ports';
import { TokenRequestActivity } from '../../lambdas/core/grants/activity';
import { handler as validateToken } from '../../lambdas/handlers/validate-token';
import { getApiKeyExchange } from '../../lambdas/wiring/api-key-exchange';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { cryptoRandom, systemClock } from '../../lambdas/adapters/system';
import { createKeyAs, exchangeKey, keyActivityOf, revokeKeyAs, storedKey, useOutbox } from '../support/api-keys';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { adminClientToken, createClient, createUser } from '../support/fixtures';

useOutbox();

let admin: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
});

async function activeKey() {
  const client = await createClient({ scopes: ['read'] });
  const user = await createUser();
  const created = await createKeyAs(admin, client.clientId, { userId: user.id });
  return { key: String(created.body.api_key), keyId: String(created.body.key_id), clientId: client.clientId };
}

const nowEpoch = () => Math.floor(Date.now() / 1000);

/** The exchange's store with some of its methods replaced (fault and race injection). */
function storeWith(store: ApiKeyExchangeStore, overrides: Partial<ApiKeyExchangeStore>): ApiKeyExchangeStore {
  return {
    get: (id) => store.get(id),
    readForExchange: (...args) => store.readForExchange(...args),
    readParties: (binding) => store.readParties(binding),
    stampLastUsed: (keyId, usedAt) => store.stampLastUsed(keyId, usedAt),
    ...overrides,
  };
}

it('behaviour KEY-8: a revocation committed after the exchange read the key leaves that exchange whole: token returned and recorded', async () => {
  const { key, keyId, clientId } = await activeKey();
  const deps = await getApiKeyExchange();
  const store = deps.store;
  const racing = {
    ...deps,
    store: storeWith(store, {
      // The worst moment: the key was read as active; the revocation commits before anything is written.
      readForExchange: async (...args) => {
        const read = await store.readForExchange(...args);
        expect((await revokeKeyAs(admin, clientId, keyId)).status).toBe(200);
        return read;
      },
    }),
  };
  const response = await exchangeApiKey({ apiKey: key }, new TokenRequestActivity('203.0.113.7', systemClock, cryptoRandom), racing);
  const jti = String(decodeJwt(response.access_token).jti);
  expect(await getTokenStore().getTokenRecord(jti, nowEpoch())).toMatchObject({ jti, apiKeyId: keyId });
  // The next exchange reads the revocation.
  const next = await exchangeKey({ bearer: key });
  expect(next.status).toBe(401);
  expect(next.body.error).toBe('invalid_client');
});

it('behaviour KEY-8: concurrent exchanges and a revocation: every success is recorded, every exchange after it fails', async () => {
  const { key, keyId, clientId } = await activeKey();
  expect((await exchangeKey({ bearer: key })).status).toBe(200); // verified once: the rest race from the cache
  const exchanges = Array.from({ length: 12 }, () => exchangeKey({ bearer: key }));
  const revoked = await revokeKeyAs(admin, clientId, keyId);
  const results = await Promise.all(exchanges);
  expect(revoked.status).toBe(200);
  expect((await storedKey(keyId))!.revokedAt).toBe(String(revoked.body.revoked_at));
  const successes = results.filter((r) => r.status === 200);
  for (const r of results) expect([200, 401]).toContain(r.status);
  for (const r of successes) {
    const jti = String(decodeJwt(String(r.body.access_token)).jti);
    expect(await getTokenStore().getTokenRecord(jti, nowEpoch())).toMatchObject({ apiKeyId: keyId });
  }
  const rows = await keyActivityOf(clientId);
  expect(rows.filter((row) => row.success)).toHaveLength(successes.length + 1);
  const after = await Promise.all(Array.from({ length: 3 }, () => exchangeKey({ bearer: key })));
  for (const r of after) expect(r.status).toBe(401);
});

it('behaviour KEY-8: tokens minted before a revocation stay valid for their remaining hour', async () => {
  const { key, keyId, clientId } = await activeKey();
  const token = String((await exchangeKey({ bearer: key })).body.access_token);
  expect((await revokeKeyAs(admin, clientId, keyId)).status).toBe(200);
  const result = await validateToken(
    apiGatewayEvent({ path: '/api/token/validate', headers: { Authorization: `Bearer ${token}` } }),
    lambdaContext,
  );
  expect(result.statusCode).toBe(200);
  expect(decodeJwt(token).api_key_id).toBe(keyId);
});

describe("the exchange's writes fail apart: the token record decides", () => {
  async function exchangeWith(overrides: { stampLastUsed?: () => Promise<void>; recordIssued?: () => Promise<void> }) {
    const { key, keyId, clientId } = await activeKey();
    const deps = await getApiKeyExchange();
    const errors: { message: string; fields?: Record<string, unknown> }[] = [];
    const log = { ...deps.log, error: (message: string, fields?: Record<string, unknown>) => void errors.push({ message, fields }) };
    const store = deps.store;
    const faulty = {
      ...deps,
      log,
      recordIssued: overrides.recordIssued ?? deps.recordIssued,
      store: storeWith(store, overrides.stampLastUsed ? { stampLastUsed: overrides.stampLastUsed } : {}),
    };
    const outcome = exchangeApiKey({ apiKey: key }, new TokenRequestActivity('203.0.113.9', systemClock, cryptoRandom), faulty);
    return { outcome, keyId, clientId, errors };
  }

  it('a lastUsedAt stamp that fails after retries still returns the recorded token, with one success row, and logs an error', async () => {
    const { outcome, keyId, clientId, errors } = await exchangeWith({
      stampLastUsed: () => Promise.reject(new Error('ProvisionedThroughputExceeded')),
    });
    const response = await outcome;
    const jti = String(decodeJwt(response.access_token).jti);
    expect(await getTokenStore().getTokenRecord(jti, nowEpoch())).toMatchObject({ apiKeyId: keyId });
    expect((await keyActivityOf(clientId)).map((row) => row.success)).toEqual([true]);
    expect((await storedKey(keyId))?.lastUsedAt).toBeUndefined();
    expect(errors).toEqual([{ message: 'lastUsedAt stamp failed after retries', fields: expect.objectContaining({ apiKeyId: keyId }) }]);
  });

  it('a token record that cannot be written fails the exchange: no token is returned', async () => {
    const { outcome, errors } = await exchangeWith({ recordIssued: () => Promise.reject(new Error('DynamoDB unavailable')) });
    await expect(outcome).rejects.toThrow('DynamoDB unavailable');
    expect(errors).toEqual([]);
  });
});
