/**
 * Behaviour KEY-11..KEY-13, all five scope snapshot rules, through the admin API (create, PATCH client
 * scopes) and the exchange.
 */
import { decodeJwt } from 'jose';
import { handler as patchClient } from '../../lambdas/handlers/admin/clients-update';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { createKeyAs, exchangeKey, listKeysAs, storedKey, useOutbox } from '../support/api-keys';
import { adminClientToken, createClient, createUser } from '../support/fixtures';

useOutbox();

let admin: string;
beforeAll(async () => {
  await ensureScopes('read', 'write', 'delete', 'extra');
  admin = (await adminClientToken()).token;
});

async function keyFor(clientScopes: string[], body: Record<string, unknown> = {}) {
  const client = await createClient({ scopes: clientScopes });
  const user = await createUser();
  const created = await createKeyAs(admin, client.clientId, { userId: user.id, ...body });
  expect(created.status).toBe(201);
  return { client, key: String(created.body.api_key), keyId: String(created.body.key_id), scopes: created.body.scopes };
}

const setClientScopes = (clientId: string, scopes: string[]) =>
  callAdmin(patchClient, { token: admin, method: 'PATCH', pathParameters: { client_id: clientId }, body: { scopes } });

describe("behaviour KEY-11: no scopes selected → all the client's scopes of that moment", () => {
  it.each([
    ['omitted', {}],
    ['empty', { scopes: [] }],
  ])('scopes %s', async (_what, body) => {
    const { scopes, key } = await keyFor(['read', 'write'], body);
    expect(scopes).toEqual(['read', 'write']);
    expect((await exchangeKey({ bearer: key })).body.scope).toBe('read write');
  });

  it("selected scopes are a subset of the client's", async () => {
    const { scopes, key } = await keyFor(['read', 'write'], { scopes: ['write'] });
    expect(scopes).toEqual(['write']);
    expect((await exchangeKey({ bearer: key })).body.scope).toBe('write');
  });
});

describe('behaviour KEY-12: a scope granted to the client later is not added', () => {
  it('the key keeps its snapshot; asking for the new scope is invalid_scope', async () => {
    const { client, key, keyId } = await keyFor(['read']);
    expect((await setClientScopes(client.clientId, ['read', 'extra'])).statusCode).toBe(200);
    expect((await storedKey(keyId))?.scopes).toEqual(['read']);
    const fresh = await exchangeKey({ bearer: key });
    expect(fresh.body.scope).toBe('read');
    expect((await exchangeKey({ bearer: key, fields: { scope: 'extra' } })).body.error).toBe('invalid_scope');
  });
});

describe('behaviour KEY-12: a scope ungranted from the client is removed from every key that held it', () => {
  it("PATCH /api/admin/clients removes it from all the client's keys, and the exchange no longer mints it", async () => {
    const client = await createClient({ scopes: ['read', 'write', 'delete'] });
    const user = await createUser();
    const k1 = (await createKeyAs(admin, client.clientId, { userId: user.id })).body;
    const k2 = (await createKeyAs(admin, client.clientId, { userId: user.id, scopes: ['write', 'delete'] })).body;
    const k3 = (await createKeyAs(admin, client.clientId, { userId: user.id, scopes: ['read'] })).body;
    expect((await setClientScopes(client.clientId, ['read', 'delete'])).statusCode).toBe(200);
    const listed = Object.fromEntries(
      ((await listKeysAs(admin, client.clientId)).body.items as { key_id: string; scopes: string[] }[]).map((k) => [k.key_id, k.scopes]),
    );
    expect(listed).toEqual({ [String(k1.key_id)]: ['read', 'delete'], [String(k2.key_id)]: ['delete'], [String(k3.key_id)]: ['read'] });
    expect((await exchangeKey({ bearer: String(k1.api_key) })).body.scope).toBe('read delete');
    expect((await exchangeKey({ bearer: String(k1.api_key), fields: { scope: 'write' } })).body.error).toBe('invalid_scope');
  });

  it('a half-finished removal (client updated, keys not yet) still never mints the ungranted scope', async () => {
    const { client, key, keyId } = await keyFor(['read', 'write']);
    // An exchange with the client as it was: the next one must read the client anew.
    expect((await exchangeKey({ bearer: key })).body.scope).toBe('read write');
    // Only the client write, as if the ungrant hook had not run (yet).
    await getClientRepository().update(client.clientId, { scopes: ['read'] });
    expect((await storedKey(keyId))?.scopes).toEqual(['read', 'write']);
    const result = await exchangeKey({ bearer: key });
    expect(result.status).toBe(200);
    expect(result.body.scope).toBe('read');
    expect(decodeJwt(String(result.body.access_token)).scope).toBe('read');
    expect((await exchangeKey({ bearer: key, fields: { scope: 'write' } })).body.error).toBe('invalid_scope');
  });
});

describe('behaviour KEY-13: a key whose scopes were all ungranted mints nothing', () => {
  it("it does not fall back to the client's current scopes", async () => {
    const { client, key, keyId } = await keyFor(['read', 'write'], { scopes: ['write'] });
    expect((await setClientScopes(client.clientId, ['read'])).statusCode).toBe(200);
    expect((await storedKey(keyId))?.scopes).toEqual([]);
    const result = await exchangeKey({ bearer: key });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: 'invalid_scope', error_description: 'The API key holds no scope, so it mints nothing.' });
    expect((await exchangeKey({ bearer: key, fields: { scope: 'read' } })).body.error).toBe('invalid_scope');
  });
});

describe('behaviour KEY-13: an exchange may narrow, never widen', () => {
  it('narrows to a subset; a scope outside the key is invalid_scope (behaviour KEYX-4)', async () => {
    const { key } = await keyFor(['read', 'write', 'delete'], { scopes: ['read', 'write'] });
    expect((await exchangeKey({ bearer: key, fields: { scope: 'read' } })).body.scope).toBe('read');
    const widened = await exchangeKey({ bearer: key, fields: { scope: 'read delete' } });
    expect(widened.status).toBe(400);
    expect(widened.body.error).toBe('invalid_scope');
  });
});

it('a client granted no scopes cannot get a key that would mint nothing (400)', async () => {
  const client = await createClient({ scopes: [] });
  const user = await createUser();
  const result = await createKeyAs(admin, client.clientId, { userId: user.id });
  expect(result.status).toBe(400);
  expect(String(result.body.error_description)).toMatch(/^scopes: the client is granted no scopes/);
});
