/**
 * /api/admin/clients/{client_id}/api-keys by admin callers (behaviour KEYM-5..KEYM-7, KEY-5..KEY-8, KEY-16):
 * create (secret once, audit entry in the same transaction), list (never secrets, status,
 * pagination), revoke (soft delete, first timestamp kept), the user-deletion hook.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeyItem } from '../../lambdas/adapters/dynamodb/api-key-items';
import type { ApiKey } from '../../lambdas/core/model';
import { handler as deleteUser } from '../../lambdas/handlers/admin/users-delete';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { getHasher } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { callAdmin } from '../support/admin-calls';
import { auditOf, createKeyAs, exchangeKey, listKeysAs, outboxMails, revokeKeyAs, storedKey, useOutbox } from '../support/api-keys';
import { DynamoFaults, touches, type Attempt } from '../support/dynamo-faults';
import { adminClientToken, adminUserToken, createClient, createUser, issueAccessToken } from '../support/fixtures';

const outbox = useOutbox();

let admin: string;
let adminClientId: string;
beforeAll(async () => {
  const made = await adminClientToken();
  admin = made.token;
  adminClientId = made.client.clientId;
});

const keyFormat = /^tgk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/;

describe('behaviour KEY-6 (none) → active: create via the admin route', () => {
  it('returns the key with its secret once (201), stores only an Argon2id hash (behaviour KEY-2, KEYM-5)', async () => {
    const client = await createClient({ scopes: ['read', 'write'] });
    const user = await createUser();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { status, body } = await createKeyAs(admin, client.clientId, { userId: user.id, name: 'CI', expiresAt, scopes: ['read'] });
    expect(status).toBe(201);
    expect(String(body.api_key)).toMatch(keyFormat);
    expect(String(body.api_key)).toBe(`tgk_${body.key_id}_${body.secret}`);
    expect(body).toMatchObject({
      client_id: client.clientId,
      user_id: user.id,
      name: 'CI',
      scopes: ['read'],
      status: 'active',
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: null,
      created_by: { type: 'admin-client', client_id: adminClientId },
    });
    const stored = (await storedKey(String(body.key_id)))!;
    expect(stored.secretHash).toMatch(/^\$argon2id\$v=19\$/);
    expect(JSON.stringify(stored)).not.toContain(String(body.secret));
    expect(await getHasher().verify(stored.secretHash, String(body.secret))).toBe(true);
  });

  it('writes api_key.create to the admin audit log: key id, bound user, scopes, never the secret (behaviour KEY-16)', async () => {
    const client = await createClient({ scopes: ['read', 'write'] });
    const user = await createUser();
    const { body } = await createKeyAs(admin, client.clientId, { userId: user.id });
    const audit = await auditOf(client.clientId);
    expect(audit).toEqual([
      expect.objectContaining({
        type: 'api_key.create',
        keyId: body.key_id,
        userId: user.id,
        scopes: ['read', 'write'],
        actor: { kind: 'admin-client', clientId: adminClientId },
      }),
    ]);
    const dump = JSON.stringify(audit);
    expect(dump).not.toContain(String(body.secret));
    expect(dump).not.toMatch(/argon2|secretHash/);
  });

  it('an admin user may create keys too; it is recorded as the creator', async () => {
    const { token, user: adminUser } = await adminUserToken();
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const { status, body } = await createKeyAs(token, client.clientId, { userId: user.id });
    expect(status).toBe(201);
    expect(body.created_by).toEqual({ type: 'admin-user', user_id: adminUser.id });
  });

  it('sends no mail on the admin path (behaviour KEY-14)', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const before = outboxMails(outbox).length;
    expect((await createKeyAs(admin, client.clientId, { userId: user.id })).status).toBe(201);
    expect(outboxMails(outbox).filter((m) => m.to === user.email)).toHaveLength(0);
    expect(outboxMails(outbox).length).toBe(before);
  });

  it('the audit entry is atomic with the key: a create that fails in its transaction leaves neither', async () => {
    const client = await createClient({ scopes: ['read'] });
    const key: ApiKey = {
      keyId: 'ab'.repeat(8),
      clientId: client.clientId,
      userId: 'usr_deleted_meanwhile',
      scopes: ['read'],
      secretHash: '$argon2id$v=19$m=1024,t=1,p=1$x$y',
      createdAt: new Date().toISOString(),
      createdBy: { kind: 'admin-client', clientId: adminClientId },
    };
    const audit = {
      type: 'api_key.create',
      clientId: client.clientId,
      keyId: key.keyId,
      userId: key.userId,
      scopes: key.scopes,
      actor: key.createdBy,
      at: key.createdAt,
    } as const;
    expect(await getApiKeyStore().writePending(key)).toBe('user-gone');
    expect(await getApiKeyStore().activate(key, audit)).toBe('user-gone');
    expect(await storedKey(key.keyId)).toBeUndefined();
    expect(await auditOf(client.clientId)).toEqual([]);
  });
});

describe('behaviour KEYM-5: create input rules', () => {
  let clientId: string;
  let userId: string;
  beforeAll(async () => {
    clientId = (await createClient({ scopes: ['read', 'write'] })).clientId;
    userId = (await createUser()).id;
  });

  it.each([
    ['no userId from an admin caller', {}, /^userId: required/],
    ['an unknown userId', { userId: 'usr_nobody' }, /^userId: no user/],
    ['scopes the client does not hold', { scopes: ['read', 'delete'] }, /^scopes: not granted to the client: "delete"/],
    [
      'an expiresAt in the past (behaviour KEYM-5: in the future)',
      { expiresAt: '2001-01-01T00:00:00Z' },
      /^expiresAt: must be in the future/,
    ],
    ['an expiresAt that is not ISO 8601', { expiresAt: 'tomorrow' }, /^expiresAt: must be an ISO 8601 timestamp/],
    ['an unknown field', { secret: 'mine' }, /unknown field "secret"/],
  ])('refuses %s with 400 and writes nothing', async (_what, body, description) => {
    const input = { userId, ...body } as Record<string, unknown>;
    if (_what.startsWith('no userId')) delete input.userId;
    const { status, body: error } = await createKeyAs(admin, clientId, input);
    expect(status).toBe(400);
    expect(error.error).toBe('invalid_request');
    expect(String(error.error_description)).toMatch(description);
    expect(await auditOf(clientId)).toEqual([]);
  });

  it('an unknown client is 404', async () => {
    expect((await createKeyAs(admin, 'tgc_nobody', { userId })).status).toBe(404);
  });

  it('behaviour KEY-3: a test user may be bound only to a test client', async () => {
    const production = await createClient({ scopes: ['read'], test: false });
    const testClient = await createClient({ scopes: ['read'], test: true });
    const testUser = await createUser({ test: true });
    const realUser = await createUser({ test: false });
    const refused = await createKeyAs(admin, production.clientId, { userId: testUser.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error_description).toBe('userId: a test user may be bound only to a test client.');
    expect((await createKeyAs(admin, testClient.clientId, { userId: testUser.id })).status).toBe(201);
    expect((await createKeyAs(admin, production.clientId, { userId: realUser.id })).status).toBe(201);
  });

  it('accepts an expiresAt with an offset and stores it in UTC', async () => {
    const { status, body } = await createKeyAs(admin, clientId, { userId, expiresAt: '2099-06-01T12:00:00+02:00' });
    expect(status).toBe(201);
    expect(body.expires_at).toBe('2099-06-01T10:00:00.000Z');
  });
});

describe('behaviour KEYM-6: list', () => {
  it('never returns secrets or hashes, shows status active/expired/revoked, and pages with next_cursor', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await createKeyAs(admin, client.clientId, { userId: user.id, name: `k${i}` })).body);
    await revokeKeyAs(admin, client.clientId, String(made[1]!.key_id));
    // An expired key cannot be created through the API (expiresAt must be in the future): write one.
    const expired: ApiKey = {
      ...(await storedKey(String(made[2]!.key_id)))!,
      keyId: 'cd'.repeat(8),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      createdAt: new Date().toISOString(),
    };
    await getStorage().db.send(new PutCommand({ TableName: getStorage().tables.main, Item: apiKeyItem(expired) }));

    const seen: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { status, body, result } = await listKeysAs(admin, client.clientId, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(status).toBe(200);
      for (const m of made) expect(result.body).not.toContain(String(m.secret));
      expect(result.body).not.toMatch(/argon2|secret/i);
      seen.push(...(body.items as Record<string, unknown>[]));
      cursor = body.next_cursor as string | undefined;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(2);
    const status = Object.fromEntries(seen.map((k) => [k.key_id, k.status]));
    expect(status).toEqual({
      [String(made[0]!.key_id)]: 'active',
      [String(made[1]!.key_id)]: 'revoked',
      [String(made[2]!.key_id)]: 'active',
      [expired.keyId]: 'expired',
    });
  });

  it('refuses a cursor of another list with 400, and an unknown client with 404', async () => {
    const a = await createClient({ scopes: ['read'] });
    const b = await createClient({ scopes: ['read'] });
    const user = await createUser();
    for (let i = 0; i < 2; i++) await createKeyAs(admin, a.clientId, { userId: user.id });
    const first = await listKeysAs(admin, a.clientId, { limit: '1' });
    expect((await listKeysAs(admin, b.clientId, { cursor: String(first.body.next_cursor) })).status).toBe(400);
    expect((await listKeysAs(admin, 'tgc_nobody')).status).toBe(404);
  });
});

describe('behaviour KEY-8 active → revoked and revoked → revoked: DELETE', () => {
  it('revokes (200, status revoked), writes api_key.revoke, and the next exchange fails', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const { body } = await createKeyAs(admin, client.clientId, { userId: user.id });
    expect((await exchangeKey({ bearer: String(body.api_key) })).status).toBe(200);
    const revoked = await revokeKeyAs(admin, client.clientId, String(body.key_id));
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ key_id: body.key_id, status: 'revoked' });
    expect((await exchangeKey({ bearer: String(body.api_key) })).status).toBe(401);
    const audit = await auditOf(client.clientId);
    expect(audit.map((a) => a.type)).toEqual(['api_key.create', 'api_key.revoke']);
    expect(audit[1]).toMatchObject({ keyId: body.key_id, userId: user.id, actor: { kind: 'admin-client', clientId: adminClientId } });
    expect(audit[1]!.at).toBe(revoked.body.revoked_at);
  });

  it('a second DELETE keeps the original revocation timestamp and writes no second audit entry', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const { body } = await createKeyAs(admin, client.clientId, { userId: user.id });
    const first = await revokeKeyAs(admin, client.clientId, String(body.key_id));
    await new Promise((r) => setTimeout(r, 15));
    const second = await revokeKeyAs(admin, client.clientId, String(body.key_id));
    expect(second.status).toBe(200);
    expect(second.body.revoked_at).toBe(first.body.revoked_at);
    expect((await storedKey(String(body.key_id)))?.revokedAt).toBe(first.body.revoked_at);
    expect((await auditOf(client.clientId)).filter((a) => a.type === 'api_key.revoke')).toHaveLength(1);
  });

  it('the record survives revocation (soft delete), with a TTL long after it (documented retention)', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const { body } = await createKeyAs(admin, client.clientId, { userId: user.id });
    const revoked = await revokeKeyAs(admin, client.clientId, String(body.key_id));
    const { Item } = await getStorage().db.send(
      new (await import('@aws-sdk/lib-dynamodb')).GetCommand({
        TableName: getStorage().tables.main,
        Key: { pk: `APIKEY#${body.key_id}`, sk: 'APIKEY' },
      }),
    );
    const revokedEpoch = Math.floor(Date.parse(String(revoked.body.revoked_at)) / 1000);
    expect(Item?.ttl).toBe(revokedEpoch + 400 * 86_400);
  });

  it('a key of another client, an unknown id and a malformed id are 404', async () => {
    const a = await createClient({ scopes: ['read'] });
    const b = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const { body } = await createKeyAs(admin, a.clientId, { userId: user.id });
    expect((await revokeKeyAs(admin, b.clientId, String(body.key_id))).status).toBe(404);
    expect((await revokeKeyAs(admin, a.clientId, '0123456789abcdef')).status).toBe(404);
    expect((await revokeKeyAs(admin, a.clientId, '../x')).status).toBe(404);
    expect((await storedKey(String(body.key_id)))?.revokedAt).toBeUndefined();
  });
});

/** The revocation's transaction: its first item sets `revokedAt` on the key record (`APIKEY#`). */
const isRevocation = (a: Attempt) =>
  touches(a, 'APIKEY#') &&
  String((a.input.TransactItems as { Update?: { UpdateExpression?: string } }[] | undefined)?.[0]?.Update?.UpdateExpression ?? '').includes(
    'SET revokedAt',
  );

/**
 * The revocation's transaction names no ClientRequestToken; the DynamoDB client fills one in when
 * it serializes the call (the field's idempotency-token trait), before its retries, so its resend
 * carries the same token and DynamoDB answers it as the first send. A DELETE would answer 200 even
 * if the resend were refused (the use case then re-reads the revoked key); the RESET-13 test in
 * password-reset-api-keys.test.ts is the one whose answer depends on the token.
 */
describe('behaviour KEY-8, KEYM-7, LOG-9, ERR-5: a revocation whose reply was lost and which the DynamoDB client sent again', () => {
  let faults: DynamoFaults;
  beforeEach(() => (faults = DynamoFaults.install()));
  afterEach(() => faults.uninstall());

  /** Revokes `keyId` with its transaction's first reply lost after it landed; checks the answer, the record and the audit. */
  async function revokeWithLostReply(token: string, clientId: string, keyId: string) {
    faults.fail({ operation: 'TransactWriteItems', phase: 'after', times: 1, where: isRevocation });
    const revoked = await revokeKeyAs(token, clientId, keyId);
    faults.clear();
    // The first attempt landed, its reply was lost, and the SDK sent the same transaction again.
    expect(faults.injected).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    expect(faults.attempts.filter(isRevocation)).toHaveLength(2);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ key_id: keyId, status: 'revoked' });
    expect((await storedKey(keyId))?.revokedAt).toBe(revoked.body.revoked_at);
    const entries = (await auditOf(clientId)).filter((a) => a.type === 'api_key.revoke');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.at).toBe(revoked.body.revoked_at);
    return { revoked, entry: entries[0]! };
  }

  it('admin DELETE: 200 with status revoked (not an error, nor 404), one api_key.revoke entry, the key no longer exchanges', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const { body } = await createKeyAs(admin, client.clientId, { userId: user.id });
    const { entry } = await revokeWithLostReply(admin, client.clientId, String(body.key_id));
    expect(entry).toMatchObject({ keyId: body.key_id, userId: user.id, actor: { kind: 'admin-client', clientId: adminClientId } });
    expect((await exchangeKey({ bearer: String(body.api_key) })).status).toBe(401);
  });

  it("self-service DELETE of the user's own key: 200 with status revoked, one api_key.revoke entry with the user as actor", async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const own = (await issueAccessToken({ clientId: client.clientId, sub: user.id, scopes: ['read'] })).token;
    const { body } = await createKeyAs(own, client.clientId, { name: 'laptop' });
    expect(body.created_by).toEqual({ type: 'user', user_id: user.id });
    const { entry } = await revokeWithLostReply(own, client.clientId, String(body.key_id));
    expect(entry).toMatchObject({ keyId: body.key_id, userId: user.id, actor: { kind: 'user', userId: user.id } });
    expect((await exchangeKey({ bearer: String(body.api_key) })).status).toBe(401);
  });
});

describe('behaviour KEY-7 active → expired: time passes expiresAt', () => {
  it('exchanges until expiresAt, then fails like any other failure; the list shows expired', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { body } = await createKeyAs(admin, client.clientId, { userId: user.id, expiresAt });
    expect((await exchangeKey({ bearer: String(body.api_key) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 50));
    const failed = await exchangeKey({ bearer: String(body.api_key) });
    expect(failed.status).toBe(401);
    expect(failed.body).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });
    const listed = await listKeysAs(admin, client.clientId);
    expect((listed.body.items as { status: string }[])[0]!.status).toBe('expired');
  });
});

describe("behaviour KEY-9: deleting a user deletes that user's keys", () => {
  it('DELETE /api/admin/users/{id} removes the keys of every client; their exchange fails', async () => {
    const a = await createClient({ scopes: ['read'] });
    const b = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const other = await createUser();
    const k1 = (await createKeyAs(admin, a.clientId, { userId: user.id })).body;
    const k2 = (await createKeyAs(admin, b.clientId, { userId: user.id })).body;
    const kept = (await createKeyAs(admin, a.clientId, { userId: other.id })).body;
    const result = await callAdmin(deleteUser, { token: admin, method: 'DELETE', pathParameters: { user_id: user.id } });
    expect(result.statusCode).toBe(204);
    expect(await storedKey(String(k1.key_id))).toBeUndefined();
    expect(await storedKey(String(k2.key_id))).toBeUndefined();
    expect(await storedKey(String(kept.key_id))).toBeDefined();
    expect((await exchangeKey({ bearer: String(k1.api_key) })).status).toBe(401);
    expect((await exchangeKey({ bearer: String(kept.api_key) })).status).toBe(200);
    const listed = await listKeysAs(admin, a.clientId);
    expect((listed.body.items as { key_id: string }[]).map((k) => k.key_id)).toEqual([kept.key_id]);
  });
});

describe('expiresAt bounds', () => {
  it('refuses an expiry at or past the year 10000 (its ISO form would no longer sort as a date)', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const result = await createKeyAs(admin, client.clientId, { userId: user.id, expiresAt: '9999-12-31T23:59:59-23:59' });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('invalid_request');
  });
});
