/**
 * POST /api/token/api-key (behaviour KEYX-1..KEYX-8, CLAIM-3): the key from the header or the
 * body, the token it mints, the activity row of every attempt, and the verified-key cache.
 */
import { decodeJwt } from 'jose';
import { randomUUID } from 'node:crypto';
import { getClientRepository, getEnvironments, getHasher, getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { headerOf } from '../support/events';
import { issuer, resourceA, verifyAsResourceServer } from '../support/token-calls';
import { adminClientToken, createClient, createUser } from '../support/fixtures';
import { createKeyAs, exchangeKey, keyActivityOf, revokeKeyAs, storedKey, useOutbox } from '../support/api-keys';
import { getStorage } from '../../lambdas/wiring/storage';
import { DynamoApiKeyStore } from '../../lambdas/adapters/dynamodb/api-key-store';
import { allClientCopyKeys } from '../../lambdas/adapters/dynamodb/client-copies';
import { usedAtSecond } from '../../lambdas/core/api-keys/exchange';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

useOutbox();

let admin: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
});

async function newKey(scopes = ['read', 'write'], body: Record<string, unknown> = {}) {
  const client = await createClient({ scopes });
  const user = await createUser();
  const created = await createKeyAs(admin, client.clientId, { userId: user.id, ...body });
  expect(created.status).toBe(201);
  return { client, user, key: String(created.body.api_key), keyId: String(created.body.key_id) };
}

describe('behaviour KEYX-6: a valid key is exchanged for a one-hour access token', () => {
  it('answers token_type Bearer, a JWT, expires_in 3600 and the scope, and never a refresh token (behaviour KEYX-6, CLAIM-3)', async () => {
    const { key, client } = await newKey();
    const { status, body } = await exchangeKey({ bearer: key });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    const claims = decodeJwt(String(body.access_token));
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.client_id).toBe(client.clientId);
  });

  it('mints sub = the bound user, api_key_id = the key, aud = resource (behaviour KEYX-6, CLAIM-1, RFC 8707)', async () => {
    const { key, keyId, user } = await newKey();
    const { status, body } = await exchangeKey({ bearer: key, fields: { resource: resourceA } });
    expect(status).toBe(200);
    const claims = await verifyAsResourceServer(String(body.access_token), resourceA);
    expect(claims).toMatchObject({ iss: issuer(), sub: user.id, aud: resourceA, api_key_id: keyId });
  });

  it('without resource the aud is the issuer (behaviour CLAIM-2)', async () => {
    const { key } = await newKey();
    const { body } = await exchangeKey({ bearer: key });
    expect(decodeJwt(String(body.access_token)).aud).toBe(issuer());
  });

  it('records the issued token with its api_key_id (behaviour KEYX-6)', async () => {
    const { key, keyId, user } = await newKey();
    const { body } = await exchangeKey({ bearer: key });
    const jti = String(decodeJwt(String(body.access_token)).jti);
    const record = await getTokenStore().getTokenRecord(jti, Math.floor(Date.now() / 1000));
    expect(record).toMatchObject({ jti, apiKeyId: keyId, sub: user.id });
  });

  it('stamps last_used_at on a success, to the second (behaviour KEYX-7, 4.5)', async () => {
    const { key, keyId } = await newKey();
    expect((await storedKey(keyId))?.lastUsedAt).toBeUndefined();
    const before = usedAtSecond(Date.now());
    await exchangeKey({ bearer: key });
    const stamped = (await storedKey(keyId))?.lastUsedAt;
    expect(stamped! >= before).toBe(true);
    expect(stamped! <= new Date().toISOString()).toBe(true);
    expect(stamped).toMatch(/:\d\d\.000Z$/);
  });

  it('last_used_at only moves forward, and a stamp never brings back a deleted key', async () => {
    const { keyId } = await newKey();
    // Separate stores, as two containers: each remembers only its own stamps.
    const container = () => new DynamoApiKeyStore(getStorage().db, getStorage().tables, () => randomUUID());
    await container().stampLastUsed(keyId, '2030-01-01T00:00:02.000Z');
    await container().stampLastUsed(keyId, '2030-01-01T00:00:01.000Z'); // a slower exchange of an earlier second
    expect((await storedKey(keyId))?.lastUsedAt).toBe('2030-01-01T00:00:02.000Z');
    await container().stampLastUsed('0000000000000000', '2030-01-01T00:00:03.000Z');
    expect(await storedKey('0000000000000000')).toBeUndefined();
  });

  it('refuses a malformed resource with invalid_target (RFC 8707 2)', async () => {
    const { key } = await newKey();
    const { status, body } = await exchangeKey({ bearer: key, fields: { resource: 'not a uri' } });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_target');
  });
});

describe('behaviour KEYX-2: where the key comes from', () => {
  it('accepts the key in a form body field api_key', async () => {
    const { key } = await newKey();
    expect((await exchangeKey({ fields: { api_key: key } })).status).toBe(200);
  });

  it('accepts the key in a JSON body field api_key, with scope and resource', async () => {
    const { key } = await newKey();
    const { status, body } = await exchangeKey({ fields: { api_key: key, scope: 'read', resource: resourceA }, json: true });
    expect(status).toBe(200);
    expect(body.scope).toBe('read');
    expect(decodeJwt(String(body.access_token)).aud).toBe(resourceA);
  });

  it('the header wins when both are present: a valid header and a bad body key succeed', async () => {
    const { key } = await newKey();
    expect((await exchangeKey({ bearer: key, fields: { api_key: 'tgk_garbage' } })).status).toBe(200);
  });

  it('the header wins when both are present: a bad header and a valid body key fail', async () => {
    const { key } = await newKey();
    // Another last character, whatever it was (a fixed 'A' is the key itself one time in 64).
    const wrong = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    const { status, body } = await exchangeKey({ bearer: wrong, fields: { api_key: key } });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
  });

  it("the header wins with the key of another client: the token is the header key's", async () => {
    const a = await newKey();
    const b = await newKey();
    const { body } = await exchangeKey({ bearer: a.key, fields: { api_key: b.key } });
    expect(decodeJwt(String(body.access_token)).api_key_id).toBe(a.keyId);
  });

  it('no key at all is the same invalid_client 401', async () => {
    const { status, body } = await exchangeKey({ fields: { scope: 'read' } });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
  });

  it('a body that is neither form nor JSON is 415; malformed JSON is 400', async () => {
    const { key } = await newKey();
    expect((await exchangeKey({ bearer: key, rawBody: 'x', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415);
    expect((await exchangeKey({ bearer: key, rawBody: '{', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
  });
});

describe('behaviour KEY-13: scope snapshot rules at the exchange', () => {
  it("rule 5: a request may narrow the key's scopes", async () => {
    const { key } = await newKey();
    const { status, body } = await exchangeKey({ bearer: key, fields: { scope: 'write' } });
    expect(status).toBe(200);
    expect(body.scope).toBe('write');
    expect(decodeJwt(String(body.access_token)).scope).toBe('write');
  });

  it('rule 5: a request may never widen them: invalid_scope (behaviour KEYX-4)', async () => {
    const { key } = await newKey(['read', 'write', 'admin-ish'], { scopes: ['read'] });
    const { status, body } = await exchangeKey({ bearer: key, fields: { scope: 'read write' } });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_scope');
  });
});

describe('behaviour LOG-1, LOG-2: one activity row per attempt, request type "api key", the real reason', () => {
  it('a success writes one row with the key, client, user and environment', async () => {
    const { key, keyId, client, user } = await newKey();
    await exchangeKey({ bearer: key });
    const rows = await keyActivityOf(client.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requestType: 'api key',
      success: true,
      apiKeyId: keyId,
      userId: user.id,
      environmentId: client.environmentId,
    });
  });

  it('each failure writes one row with its real reason (wrong secret, invalid_scope)', async () => {
    const { key, keyId, client } = await newKey();
    await exchangeKey({ bearer: `tgk_${keyId}_${'A'.repeat(43)}` });
    await exchangeKey({ bearer: key, fields: { scope: 'delete' } });
    const rows = await keyActivityOf(client.clientId);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.success === false && r.apiKeyId === keyId)).toBe(true);
    expect(rows.map((r) => r.reason)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^invalid_client: wrong secret/), expect.stringMatching(/^invalid_scope: /)]),
    );
  });

  it('a malformed key writes one row under the unknown client', async () => {
    const ip = `198.51.100.1-${randomUUID()}`; // this test's own address: its rows alone match
    await exchangeKey({ bearer: 'tgk_not-a-key', sourceIp: ip });
    const rows = (await getTokenStore().activityOf('unknown')).filter((r) => r.ip === ip && r.requestType === 'api key');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ success: false, reason: 'invalid_client: malformed API key' });
  });
});

describe('behaviour KEYX-9: the verified-key cache', () => {
  it('a repeat exchange skips Argon2id; the record is still read, so a revocation counts at once', async () => {
    const { key, keyId, client } = await newKey();
    const verify = jest.spyOn(getHasher(), 'verify');
    const dummy = jest.spyOn(getHasher(), 'verifyDummy');
    try {
      expect((await exchangeKey({ bearer: key })).status).toBe(200);
      expect((await exchangeKey({ bearer: key })).status).toBe(200);
      expect((await exchangeKey({ bearer: key })).status).toBe(200);
      expect(verify).toHaveBeenCalledTimes(1);
      const { db, tables } = getStorage();
      expect((await revokeKeyAs(admin, client.clientId, keyId)).status).toBe(200);
      const refused = await exchangeKey({ bearer: key });
      expect(refused.status).toBe(401);
      // The failure still spends one (dummy) verification, as slow as any other failure.
      expect(verify).toHaveBeenCalledTimes(1);
      expect(dummy).toHaveBeenCalledTimes(1);
      expect(
        (await db.send(new GetCommand({ TableName: tables.main, Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' } }))).Item?.revokedAt,
      ).toBeDefined();
    } finally {
      verify.mockRestore();
      dummy.mockRestore();
    }
  });

  it('a wrong secret is never served from the cache', async () => {
    const { key, keyId } = await newKey();
    expect((await exchangeKey({ bearer: key })).status).toBe(200);
    expect((await exchangeKey({ bearer: `tgk_${keyId}_${'B'.repeat(43)}` })).status).toBe(401);
  });
});

it('a 401 carries a WWW-Authenticate challenge (RFC 7235 3.1)', async () => {
  const result = await exchangeKey({ bearer: 'nope' });
  expect(headerOf(result.result, 'www-authenticate')).toBe('Bearer realm="api-key"');
});

describe('behaviour KEY-3: a test user may be bound only to a test client', () => {
  it('stops minting when the bound user is later flagged as a test user, for a non-test client', async () => {
    const client = await createClient({ scopes: ['read'], test: false });
    const user = await createUser({ test: false });
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    expect(created.status).toBe(201);
    const key = String(created.body.api_key);
    expect((await exchangeKey({ bearer: key })).status).toBe(200);
    const current = (await getUsers().get(user.id))!;
    await getUsers().update(current, { test: true }, new Date().toISOString());
    const refused = await exchangeKey({ bearer: key });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
  });
});

describe('behaviour KEYX-5: every check is made on records read in the exchange itself', () => {
  it('a repeat exchange is one read round trip (key, client and user together) and one batch write', async () => {
    const { key } = await newKey();
    expect((await exchangeKey({ bearer: key })).status).toBe(200); // verified: now in the cache
    await exchangeKey({ bearer: key }); // this second is stamped: the next exchange in it writes no stamp
    const send = jest.spyOn(getStorage().db, 'send');
    let result: Awaited<ReturnType<typeof exchangeKey>>;
    let names: string[];
    try {
      result = await exchangeKey({ bearer: key });
      names = send.mock.calls.map(([command]) => command.constructor.name);
    } finally {
      send.mockRestore();
    }
    expect(result.status).toBe(200);
    expect(names.filter((n) => n !== 'UpdateCommand')).toEqual(['BatchGetCommand', 'BatchWriteCommand']);
    expect(names.filter((n) => n === 'UpdateCommand').length).toBeLessThanOrEqual(1); // a new second: one stamp
  });

  it.each([
    ['first exchange', false],
    ['repeat exchange', true],
  ])('a deleted client mints nothing: 401 invalid_client, the reason in the activity log (%s)', async (_, verifiedBefore) => {
    const { key, keyId, client } = await newKey();
    if (verifiedBefore) expect((await exchangeKey({ bearer: key })).status).toBe(200);
    expect(await getClientRepository().delete(client.clientId)).toBe(true);
    const result = await exchangeKey({ bearer: key });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
    const rows = await keyActivityOf(client.clientId);
    expect(rows.at(-1)).toMatchObject({ success: false, reason: `invalid_client: the client of key ${keyId} no longer exists` });
  });

  it.each([
    ['first exchange', false],
    ['repeat exchange', true],
  ])(
    "behaviour ENV-2: a user who lost the client's environment mints nothing: the uniform 401, the reason in the activity log (%s)",
    async (_, verifiedBefore) => {
      const { key, keyId, client, user } = await newKey();
      if (verifiedBefore) expect((await exchangeKey({ bearer: key })).status).toBe(200);
      await getEnvironments().revoke(user.id, client.environmentId);
      const result = await exchangeKey({ bearer: key });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
      const rows = await keyActivityOf(client.clientId);
      expect(rows.at(-1)).toMatchObject({
        success: false,
        reason: `invalid_client: the user of key ${keyId} no longer holds environment ${client.environmentId}`,
      });
    },
  );

  it('behaviour KEY-4, KEYM-2: a self-service key of a self-registered client, made before self-service was refused there, mints nothing; an admin-made key of that client still does', async () => {
    const dcr = process.env.DCR_ENVIRONMENT_ID!;
    const client = await createClient({
      registrationType: 'dynamic',
      type: 'public',
      scopes: ['read'],
      grantTypes: ['authorization_code'],
      redirectUris: ['https://d.example.test/cb'],
    });
    const user = await createUser({ environments: [dcr] });
    const made = await createKeyAs(admin, client.clientId, { userId: user.id });
    const adminMade = await createKeyAs(admin, client.clientId, { userId: user.id });
    expect(made.status).toBe(201);
    // As the old self-service route wrote it: created by the bound user.
    const { db, tables } = getStorage();
    await db.send(
      new UpdateCommand({
        TableName: tables.main,
        Key: { pk: `APIKEY#${String(made.body.key_id)}`, sk: 'APIKEY' },
        UpdateExpression: 'SET createdBy = :by',
        ExpressionAttributeValues: { ':by': { kind: 'user', userId: user.id } },
      }),
    );
    const refused = await exchangeKey({ bearer: String(made.body.api_key) });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
    expect((await keyActivityOf(client.clientId)).at(-1)).toMatchObject({
      success: false,
      reason: expect.stringMatching(/self-served for client .* which registered itself/),
    });
    expect((await exchangeKey({ bearer: String(adminMade.body.api_key) })).status).toBe(200);
  });

  it('a client blocked by a tombstone (a deleted metadata-document client) counts as gone', async () => {
    const { key, client } = await newKey();
    expect((await exchangeKey({ bearer: key })).status).toBe(200);
    const { db, tables } = getStorage();
    // On the record and every read-sharded copy, as the repository writes a tombstone.
    for (const key of allClientCopyKeys(client.clientId)) {
      await db.send(new PutCommand({ TableName: tables.main, Item: { ...key, clientId: client.clientId, blocked: true } }));
    }
    expect((await exchangeKey({ bearer: key })).status).toBe(401);
  });
});

describe('behaviour LOG-1: one activity row per attempt, whatever part of the success write landed', () => {
  it('a token record that fails after the success row landed leaves one row: the failure', async () => {
    const { key, client } = await newKey();
    const tokens = getTokenStore();
    const original = tokens.recordIssued;
    // Fault injection: the batch writes the activity row, then the token record fails.
    tokens.recordIssued = async (issuance) => {
      await tokens.recordActivity(issuance.activity);
      throw new Error('token record not written');
    };
    let result: Awaited<ReturnType<typeof exchangeKey>>;
    try {
      result = await exchangeKey({ bearer: key });
    } finally {
      tokens.recordIssued = original;
    }
    expect(result.status).toBe(500);
    expect(result.body).not.toHaveProperty('access_token');
    const rows = await keyActivityOf(client.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ success: false, reason: 'server_error: Error' });
  });
});
