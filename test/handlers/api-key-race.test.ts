/**
 * A revocation racing an exchange (spec 3.1 "effective on the next exchange"). The
 * guarantee: no token is returned by an exchange whose write commits after the
 * revocation committed. The exchange's single transaction stamps lastUsedAt only while the
 * key has no revokedAt, so either the exchange commits first (its token was issued while
 * the key was active, and stays valid for its hour) or it fails like any revoked key.
 */
import { decodeJwt } from 'jose';
import { exchangeApiKey } from '../../lambdas/core/api-keys/exchange';
import { TokenRequestActivity } from '../../lambdas/core/grants/activity';
import { handler as validateToken } from '../../lambdas/handlers/validate-token';
import { getApiKeyExchange } from '../../lambdas/runtime/api-keys';
import { getOAuth } from '../../lambdas/runtime/oauth';
import { systemClock } from '../../lambdas/adapters/system';
import { createKeyAs, exchangeKey, revokeKeyAs, storedKey, useOutbox } from '../support/api-keys';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { adminClientToken, createTestClient, createTestUser } from '../support/tokens';
import { InvalidClientError } from '../../lambdas/core/errors';

useOutbox();

let admin: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
});

async function activeKey() {
  const client = await createTestClient({ scopes: ['read'] });
  const user = await createTestUser();
  const created = await createKeyAs(admin, client.clientId, { userId: user.id });
  return { key: String(created.body.api_key), keyId: String(created.body.key_id), clientId: client.clientId };
}

it('spec 3.1: a revocation committed between the exchange\'s read and its write mints nothing', async () => {
  const { key, keyId, clientId } = await activeKey();
  const deps = await getApiKeyExchange();
  const store = deps.store;
  let jtiSeen: string | undefined;
  const racing = {
    ...deps,
    store: {
      get: (id: string) => store.get(id),
      // The worst moment: the key was read and verified as active, the JWT is signed.
      recordExchange: async (...args: Parameters<typeof store.recordExchange>) => {
        jtiSeen = args[1].issuance.token.jti;
        expect((await revokeKeyAs(admin, clientId, keyId)).status).toBe(200);
        return store.recordExchange(...args);
      },
    },
  };
  const activity = new TokenRequestActivity('203.0.113.7', systemClock);
  const outcome = exchangeApiKey({ apiKey: key }, activity, racing);
  await expect(outcome).rejects.toBeInstanceOf(InvalidClientError);
  await expect(outcome).rejects.toMatchObject({ reason: `key ${keyId} revoked during the exchange` });
  // The signed token was never recorded: this server's bearer checks would refuse it.
  expect(await getOAuth().tokens.getTokenRecord(jtiSeen!, Math.floor(Date.now() / 1000))).toBeUndefined();
  const stored = await storedKey(keyId);
  expect(stored?.lastUsedAt).toBeUndefined();
});

it('spec 3.1: concurrent exchanges and a revocation: every success committed before it, every later exchange fails', async () => {
  const { key, keyId, clientId } = await activeKey();
  expect((await exchangeKey({ bearer: key })).status).toBe(200); // verified once: the rest race from the cache
  const exchanges = Array.from({ length: 12 }, () => exchangeKey({ bearer: key }));
  const revoked = revokeKeyAs(admin, clientId, keyId);
  const results = await Promise.all(exchanges);
  const revokedAt = String((await revoked).body.revoked_at);
  for (const r of results) expect([200, 401]).toContain(r.status);
  const stored = (await storedKey(keyId))!;
  expect(stored.revokedAt).toBe(revokedAt);
  // The last successful stamp is not later than the revocation.
  expect(stored.lastUsedAt! <= revokedAt).toBe(true);
  const after = await Promise.all(Array.from({ length: 3 }, () => exchangeKey({ bearer: key })));
  for (const r of after) expect(r.status).toBe(401);
});

it('spec 3.1: tokens minted before a revocation stay valid for their remaining hour', async () => {
  const { key, keyId, clientId } = await activeKey();
  const token = String((await exchangeKey({ bearer: key })).body.access_token);
  expect((await revokeKeyAs(admin, clientId, keyId)).status).toBe(200);
  const result = await validateToken(apiGatewayEvent({ path: '/api/token/validate', headers: { Authorization: `Bearer ${token}` } }), lambdaContext);
  expect(result.statusCode).toBe(200);
  expect(decodeJwt(token).api_key_id).toBe(keyId);
});
