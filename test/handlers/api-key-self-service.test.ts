/**
 * Self-service key management (behaviour KEYM-1..KEYM-7, KEY-14): a signed-in user's own
 * token, issued by the client of the path, with a `sub`, not minted by an API key. Each of
 * the three conditions failing alone gets the refusal a plain non-admin token gets, word
 * for word. Self-service creation mails the user, and fails (key revoked) when it cannot.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { callAdmin } from '../support/admin-calls';
import { auditOf, createKeyAs, exchangeKey, listKeysAs, outboxMails, revokeKeyAs, storedKey, useOutbox } from '../support/api-keys';
import { adminClientToken, createClient, createUser, issueAccessToken } from '../support/fixtures';
import type { Client, User } from '../../lambdas/core/model';

const outbox = useOutbox();

let admin: string;
let client: Client;
let user: User;
let own: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
  client = await createClient({ name: 'Reports app', scopes: ['read', 'write'] });
  user = await createUser();
  own = (await issueAccessToken({ clientId: client.clientId, sub: user.id, scopes: ['read'] })).token;
});

describe('behaviour KEYM-2: a self-service caller qualifies only when all three conditions hold', () => {
  let plainRefusal: { status: number; body: string };
  beforeAll(async () => {
    // The reference: a plain non-admin token at an admin route that has no self-service.
    const plain = await callAdmin(listUsers, { token: own });
    plainRefusal = { status: plain.statusCode, body: plain.body };
    expect(plainRefusal.status).toBe(403);
  });

  it('all three hold: the user creates, lists and revokes its own key', async () => {
    const created = await createKeyAs(own, client.clientId, { name: 'laptop' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ user_id: user.id, created_by: { type: 'user', user_id: user.id } });
    const listed = await listKeysAs(own, client.clientId);
    expect((listed.body.items as { key_id: string }[]).map((k) => k.key_id)).toContain(created.body.key_id);
    expect((await revokeKeyAs(own, client.clientId, String(created.body.key_id))).status).toBe(200);
  });

  it('condition 1 fails alone (token issued by another client): the plain non-admin refusal, word for word', async () => {
    const otherClient = await createClient({ scopes: ['read'] });
    const { token } = await issueAccessToken({ clientId: otherClient.clientId, sub: user.id, scopes: ['read'] });
    for (const result of [await createKeyAs(token, client.clientId, {}), await listKeysAs(token, client.clientId)]) {
      expect(result.status).toBe(plainRefusal.status);
      expect(result.result.body).toBe(plainRefusal.body);
    }
  });

  it('condition 2 fails alone (no sub: a client_credentials token of the client): the same refusal', async () => {
    const { token } = await issueAccessToken({ clientId: client.clientId, scopes: ['read'] });
    const result = await createKeyAs(token, client.clientId, { userId: user.id });
    expect(result.status).toBe(plainRefusal.status);
    expect(result.result.body).toBe(plainRefusal.body);
  });

  it('condition 3 fails alone (minted by an API key): a key cannot create its own successor', async () => {
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    const minted = await exchangeKey({ bearer: String(created.body.api_key) });
    expect(minted.status).toBe(200);
    const token = String(minted.body.access_token);
    for (const result of [await createKeyAs(token, client.clientId, {}), await listKeysAs(token, client.clientId)]) {
      expect(result.status).toBe(plainRefusal.status);
      expect(result.result.body).toBe(plainRefusal.body);
    }
  });
});

describe('behaviour KEYM-2: self-service is only for clients an administrator created', () => {
  let plainRefusal: string;
  beforeAll(async () => {
    plainRefusal = (await callAdmin(listUsers, { token: own })).body;
  });

  for (const [kind, overrides] of [
    ['a dynamically registered client (RFC 7591)', { registrationType: 'dynamic', type: 'public' }],
    [
      'a Client ID Metadata Document client',
      { clientId: `https://app-${Date.now()}.example.test/client.json`, registrationType: 'dynamic', type: 'public' },
    ],
  ] as const) {
    it(`${kind}: its user's token gets the plain non-admin refusal on create and list, and no key is written`, async () => {
      const thirdParty = await createClient({
        ...overrides,
        scopes: ['openid', 'profile', 'email'],
        grantTypes: ['authorization_code', 'refresh_token'],
        redirectUris: ['https://app.example.test/cb'],
      });
      const { token } = await issueAccessToken({ clientId: thirdParty.clientId, sub: user.id, scopes: ['openid'] });
      const auditBefore = (await auditOf(thirdParty.clientId)).length;
      for (const result of [await createKeyAs(token, thirdParty.clientId, {}), await listKeysAs(token, thirdParty.clientId)]) {
        expect(result.status).toBe(403);
        expect(result.result.body).toBe(plainRefusal);
      }
      expect((await listKeysAs(admin, thirdParty.clientId)).body.items).toEqual([]);
      expect((await auditOf(thirdParty.clientId)).length).toBe(auditBefore);
    });
  }
});

describe("behaviour KEYM-3: a self-service key never carries more than the caller's own token", () => {
  it("without scopes: the behaviour KEY-11 snapshot intersected with the token's scopes (client: read write; token: read → key: read)", async () => {
    const created = await createKeyAs(own, client.clientId, {});
    expect(created.status).toBe(201);
    expect(created.body.scopes).toEqual(['read']);
    const widened = await exchangeKey({ bearer: String(created.body.api_key), fields: { scope: 'write' } });
    expect(widened.status).toBe(400);
    expect(widened.body.error).toBe('invalid_scope');
  });

  it('explicit scopes wider than the token: 400 invalid_request naming them, nothing written', async () => {
    const auditBefore = (await auditOf(client.clientId)).length;
    const result = await createKeyAs(own, client.clientId, { scopes: ['read', 'write'] });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe('invalid_request');
    expect(result.body.error_description).toBe('scopes: wider than your own access token: "write".');
    expect((await auditOf(client.clientId)).length).toBe(auditBefore);
  });

  it("a token with none of the client's scopes cannot create a key (400, nothing written)", async () => {
    const bare = await createUser();
    const { token } = await issueAccessToken({ clientId: client.clientId, sub: bare.id, scopes: ['openid'] });
    const result = await createKeyAs(token, client.clientId, {});
    expect(result.status).toBe(400);
    expect(String(result.body.error_description)).toMatch(/carries none of the client's scopes/);
    expect((await listKeysAs(admin, client.clientId, { limit: '100' })).body.items).not.toContainEqual(
      expect.objectContaining({ user_id: bare.id }),
    );
  });

  it("admin callers are not narrowed: the key gets all the client's scopes", async () => {
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    expect(created.body.scopes).toEqual(['read', 'write']);
  });
});

describe('behaviour KEYM-4: a self-service caller is confined to its own user', () => {
  it('userId in the body is refused with 400', async () => {
    const result = await createKeyAs(own, client.clientId, { userId: user.id });
    expect(result.status).toBe(400);
    expect(String(result.body.error_description)).toMatch(/^userId: not accepted from a self-service caller/);
  });

  it('the list shows only its own keys; an admin sees all', async () => {
    const other = await createUser();
    const theirs = (await createKeyAs(admin, client.clientId, { userId: other.id })).body;
    const mine = (await createKeyAs(own, client.clientId, {})).body;
    const listed = (await listKeysAs(own, client.clientId, { limit: '100' })).body.items as { key_id: string; user_id: string }[];
    expect(listed.map((k) => k.key_id)).toContain(mine.key_id);
    expect(listed.map((k) => k.key_id)).not.toContain(theirs.key_id);
    expect(listed.every((k) => k.user_id === user.id)).toBe(true);
    const all = (await listKeysAs(admin, client.clientId, { limit: '100' })).body.items as { key_id: string }[];
    expect(all.map((k) => k.key_id)).toEqual(expect.arrayContaining([mine.key_id, theirs.key_id]));
  });

  it('the self-service list pages with next_cursor', async () => {
    const pager = await createUser();
    const token = (await issueAccessToken({ clientId: client.clientId, sub: pager.id, scopes: ['read'] })).token;
    for (let i = 0; i < 3; i++) expect((await createKeyAs(token, client.clientId, {})).status).toBe(201);
    const first = await listKeysAs(token, client.clientId, { limit: '2' });
    expect(first.body.items).toHaveLength(2);
    const second = await listKeysAs(token, client.clientId, { limit: '2', cursor: String(first.body.next_cursor) });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next_cursor).toBeUndefined();
  });

  it("behaviour KEYM-4: revoking another user's key is 404, never 403, and leaves it active", async () => {
    const other = await createUser();
    const theirs = (await createKeyAs(admin, client.clientId, { userId: other.id })).body;
    const result = await revokeKeyAs(own, client.clientId, String(theirs.key_id));
    expect(result.status).toBe(404);
    expect(result.body.error).toBe('not_found');
    const unknown = await revokeKeyAs(own, client.clientId, 'f'.repeat(16));
    expect(unknown.status).toBe(404);
    expect(String(result.body.error_description).replace(String(theirs.key_id), 'X')).toBe(
      String(unknown.body.error_description).replace('f'.repeat(16), 'X'),
    );
    expect((await storedKey(String(theirs.key_id)))?.revokedAt).toBeUndefined();
  });
});

describe('behaviour KEY-14: self-service creation mails the bound user', () => {
  it('the user is emailed the client, key id, scopes and expiry, never the secret', async () => {
    const expiresAt = '2099-01-01T00:00:00.000Z';
    const created = await createKeyAs(own, client.clientId, { scopes: ['read'], expiresAt });
    expect(created.status).toBe(201);
    const mails = outboxMails(outbox).filter((m) => m.text.includes(String(created.body.key_id)));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatchObject({ to: user.email, from: process.env.MAIL_FROM });
    expect(mail.text).toContain(client.clientId);
    expect(mail.text).toContain('Reports app');
    expect(mail.text).toContain('Scopes:  read');
    expect(mail.text).toContain(expiresAt);
    expect(JSON.stringify(mail)).not.toContain(String(created.body.secret));
  });

  it('behaviour KEY-14: the mail says who can revoke the key and how (the client that created it, or an administrator)', async () => {
    const created = await createKeyAs(own, client.clientId, {});
    const mail = outboxMails(outbox).find((m) => m.text.includes(String(created.body.key_id)))!;
    expect(mail.text).toContain(
      `DELETE ${process.env.BASE_URL}/api/admin/clients/${client.clientId}/api-keys/${String(created.body.key_id)}`,
    );
    expect(mail.text).toContain(`sign in to Reports app and revoke key ${String(created.body.key_id)}`);
    expect(mail.text).toContain(`ask an administrator of ${process.env.BASE_URL}`);
    // The route named in the mail works for the user's own token from that client.
    expect((await revokeKeyAs(own, client.clientId, String(created.body.key_id))).status).toBe(200);
  });

  it('behaviour KEY-14 / 7: a user with no email gets 400 and nothing is written', async () => {
    const silent = await createUser({ email: undefined });
    const token = (await issueAccessToken({ clientId: client.clientId, sub: silent.id, scopes: ['read'] })).token;
    const mailsBefore = outboxMails(outbox).length;
    const auditBefore = (await auditOf(client.clientId)).length;
    const result = await createKeyAs(token, client.clientId, {});
    expect(result.status).toBe(400);
    expect(String(result.body.error_description)).toMatch(/no email address/);
    expect((await listKeysAs(token, client.clientId)).body.items).toEqual([]);
    expect((await auditOf(client.clientId)).length).toBe(auditBefore);
    expect(outboxMails(outbox).length).toBe(mailsBefore);
  });

  it('behaviour KEY-14: when the mail cannot be delivered, the key is revoked without ever being active and the call fails (503)', async () => {
    const target = await createUser();
    const token = (await issueAccessToken({ clientId: client.clientId, sub: target.id, scopes: ['read'] })).token;
    // Fault injection in the local mailer: a file where the outbox folder should be.
    rmSync(outbox, { recursive: true, force: true });
    writeFileSync(outbox, 'not a folder');
    let result: Awaited<ReturnType<typeof createKeyAs>>;
    try {
      result = await createKeyAs(token, client.clientId, {});
    } finally {
      rmSync(outbox, { force: true });
    }
    expect(result.status).toBe(503);
    expect(result.body.error).toBe('temporarily_unavailable');
    expect(String(result.body.error_description)).toMatch(/could not be delivered, so the new key ([0-9a-f]{16}) was revoked/);
    expect(JSON.stringify(result.body)).not.toMatch(/tgk_|secret/);
    const keyId = /new key ([0-9a-f]{16})/.exec(String(result.body.error_description))![1]!;
    // The spec's state for this case: revoked, listed as such, with its revocation audited; never active.
    const listed = (await listKeysAs(token, client.clientId)).body.items as { key_id: string; status: string }[];
    expect(listed.map((k) => [k.key_id, k.status])).toEqual([[keyId, 'revoked']]);
    const entries = (await auditOf(client.clientId)).filter((a) => a.keyId === keyId);
    expect(entries.map((a) => [a.type, a.reason])).toEqual([['api_key.revoke', 'notification email undeliverable']]);
  });
});
