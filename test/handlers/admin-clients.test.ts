/** /api/admin/clients: static public and confidential clients. */
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { updateClient } from '../../lambdas/core/admin/clients';
import type { ApiKeyHooks } from '../../lambdas/core/admin/ports';
import { handler as postClient } from '../../lambdas/handlers/admin/clients-create';
import { handler as deleteClient } from '../../lambdas/handlers/admin/clients-delete';
import { handler as getClient } from '../../lambdas/handlers/admin/clients-get';
import { handler as listClients } from '../../lambdas/handlers/admin/clients-list';
import { handler as patchClient } from '../../lambdas/handlers/admin/clients-update';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { getAdmin } from '../../lambdas/wiring/admin';
import { getClientRepository, getHasher } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { auditPartition, callAdmin, ensureScopes, testAdminActor } from '../support/admin-calls';
import { jsonBody } from '../support/events';
import { adminClientToken, createClient, createEnvironment, issueAccessToken, unique } from '../support/fixtures';

let token: string;
let environmentId: string;
beforeAll(async () => {
  await ensureScopes('openid', 'profile', 'email', 'admin');
  token = (await adminClientToken()).token;
  environmentId = await createEnvironment('Clients');
});

const patch = (clientId: string, body: unknown) =>
  callAdmin(patchClient, { token, method: 'PATCH', pathParameters: { client_id: clientId }, body });
const create = (body: Record<string, unknown>) =>
  callAdmin(postClient, { token, method: 'POST', body: { name: 'App', environment_id: environmentId, ...body } });
const storedClient = async (clientId: string) =>
  (await getStorage().db.send(new GetCommand({ TableName: getStorage().tables.main, Key: { pk: `CLIENT#${clientId}`, sk: 'CLIENT' } })))
    .Item;

describe('POST /api/admin/clients', () => {
  it('creates a public PKCE client: prefixed client_id, no secret, authorization_code + refresh_token by default', async () => {
    const result = await create({ type: 'public', redirect_uris: ['https://app.example.test/callback'], scopes: ['openid', 'profile'] });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(String(body.client_id).startsWith('tgc_')).toBe(true);
    expect(body).toMatchObject({
      type: 'public',
      environment_id: environmentId,
      redirect_uris: ['https://app.example.test/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile'],
      registration_type: 'static',
      admin: false,
      test: false,
    });
    expect(body).not.toHaveProperty('client_secret');
    expect((await storedClient(String(body.client_id)))?.secretHash).toBeUndefined();
  });

  it('returns a confidential client secret once and stores only its Argon2id hash', async () => {
    const result = await create({ type: 'confidential', scopes: ['openid'] });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    const secret = String(body.client_secret);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.grant_types).toEqual(['client_credentials']);
    const item = await storedClient(String(body.client_id));
    expect(String(item?.secretHash)).toMatch(/^\$argon2id\$v=19\$/);
    expect(JSON.stringify(item)).not.toContain(secret);
    expect(await getHasher().verify(String(item?.secretHash), secret)).toBe(true);

    const read = await callAdmin(getClient, { token, pathParameters: { client_id: String(body.client_id) } });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toMatch(/client_secret|secretHash|argon2/);
  });

  it.each([
    ['http on a non-loopback host', 'http://app.example.test/callback', /must use https/],
    ['a wildcard', 'https://*.example.test/callback', /wildcard/],
    ['a fragment', 'https://app.example.test/callback#x', /fragment/],
    ['a relative URI', '/callback', /absolute URI/],
    ['a custom scheme', 'myapp://callback', /must use https/],
  ])('refuses a public client whose redirect URI has %s with 400', async (_what, uri, description) => {
    const result = await create({ type: 'public', redirect_uris: ['https://ok.example.test/cb', uri] });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    expect(String(jsonBody(result).error_description)).toMatch(/^redirect_uris\.1: /);
    expect(String(jsonBody(result).error_description)).toMatch(description);
  });

  it.each([['http://localhost:8080/cb'], ['http://127.0.0.1:3000/cb'], ['http://[::1]/cb']])(
    'accepts the loopback redirect URI %s',
    async (uri) => {
      const result = await create({ type: 'public', redirect_uris: [uri] });
      expect(result.statusCode).toBe(201);
      expect(jsonBody(result).redirect_uris).toEqual([uri]);
    },
  );

  it.each([
    ['a public client without redirect URIs', { type: 'public' }, /^redirect_uris: /],
    [
      'a public client with client_credentials',
      { type: 'public', redirect_uris: ['https://a.example.test/cb'], grant_types: ['authorization_code', 'client_credentials'] },
      /^grant_types: /,
    ],
    ['an unknown type', { type: 'hybrid' }, /^type: must be one of/],
    ['an unknown grant type', { type: 'confidential', grant_types: ['password'] }, /^grant_types\.0: /],
    ['an admin public client', { type: 'public', redirect_uris: ['https://a.example.test/cb'], admin: true }, /^admin: /],
    ['an admin client without the admin scope', { type: 'confidential', admin: true }, /^admin: /],
    ['a client_secret in the body', { type: 'confidential', client_secret: 'mine' }, /unknown field "client_secret"/],
  ])('refuses %s with 400', async (_what, body, description) => {
    const result = await create(body);
    expect(result.statusCode).toBe(400);
    expect(String(jsonBody(result).error_description)).toMatch(description);
  });

  it('refuses scopes missing from the catalog with 400 naming them', async () => {
    const result = await create({ type: 'confidential', scopes: ['openid', 'nope-one', 'nope-two'] });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({ error: 'invalid_request', error_description: 'scopes: unknown scopes "nope-one", "nope-two".' });
  });

  it('refuses an unknown environment with 400', async () => {
    const result = await create({ type: 'confidential', environment_id: 'env_nowhere' });
    expect(result.statusCode).toBe(400);
    expect(String(jsonBody(result).error_description)).toMatch(/^environment_id: /);
  });

  it('creates an admin API client whose client_credentials token may call the admin API', async () => {
    const result = await create({ type: 'confidential', admin: true, scopes: ['admin'] });
    expect(result.statusCode).toBe(201);
    const { token: adminToken } = await issueAccessToken({ clientId: String(jsonBody(result).client_id), scopes: ['admin'] });
    expect((await callAdmin(listUsers, { token: adminToken })).statusCode).toBe(200);
  });
});

describe('GET /api/admin/clients', () => {
  async function allClientIds(query: Record<string, string>): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const result = await callAdmin(listClients, { token, query: { ...query, limit: '100', ...(cursor ? { cursor } : {}) } });
      expect(result.statusCode).toBe(200);
      expect(result.body).not.toMatch(/secretHash|argon2/);
      const page = jsonBody(result);
      ids.push(...(page.items as { client_id: string }[]).map((c) => c.client_id));
      cursor = page.next_cursor as string | undefined;
    } while (cursor);
    return ids;
  }

  it('filters by registration type (behaviour ADMIN-14): static by default, dynamic on request', async () => {
    const staticId = String(jsonBody(await create({ type: 'confidential' })).client_id);
    const dynamic = await createClient({
      type: 'public',
      registrationType: 'dynamic',
      grantTypes: ['authorization_code'],
      redirectUris: ['https://d.example.test/cb'],
    });
    const staticIds = await allClientIds({});
    expect(staticIds).toContain(staticId);
    expect(staticIds).not.toContain(dynamic.clientId);
    const dynamicIds = await allClientIds({ registration_type: 'dynamic' });
    expect(dynamicIds).toContain(dynamic.clientId);
    expect(dynamicIds).not.toContain(staticId);
  });

  it('answers an unknown registration type with 400 and an unknown client with 404', async () => {
    expect((await callAdmin(listClients, { token, query: { registration_type: 'both' } })).statusCode).toBe(400);
    expect((await callAdmin(getClient, { token, pathParameters: { client_id: 'tgc_nobody' } })).statusCode).toBe(404);
  });
});

describe('PATCH /api/admin/clients/{client_id}', () => {
  it('replaces the granted scopes and the name', async () => {
    const clientId = String(jsonBody(await create({ type: 'confidential', scopes: ['openid', 'profile'] })).client_id);
    const result = await patch(clientId, { name: 'Renamed', scopes: ['email'] });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({ client_id: clientId, name: 'Renamed', scopes: ['email'] });
    expect((await getClientRepository().get(clientId))?.scopes).toEqual(['email']);
  });

  it('refuses unknown scopes with 400 and leaves the client unchanged; an unknown client is 404', async () => {
    const clientId = String(jsonBody(await create({ type: 'confidential', scopes: ['openid'] })).client_id);
    expect((await patch(clientId, { scopes: ['openid', 'nope'] })).statusCode).toBe(400);
    expect((await getClientRepository().get(clientId))?.scopes).toEqual(['openid']);
    expect((await patch(clientId, {})).statusCode).toBe(400);
    expect((await patch('tgc_nobody', { name: 'x' })).statusCode).toBe(404);
  });

  it('restricts the API keys to the granted scopes after every scope change, once the client is written (behaviour KEY-12)', async () => {
    const clientId = String(jsonBody(await create({ type: 'confidential', scopes: ['openid', 'profile', 'email'] })).client_id);
    const calls: { clientId: string; granted: readonly string[]; clientScopes?: readonly string[] }[] = [];
    const apiKeys: ApiKeyHooks = {
      restrictKeysToScopes: async (id, granted) => {
        calls.push({ clientId: id, granted, clientScopes: (await getClientRepository().get(id))?.scopes });
      },
      deleteKeysOfUser: async () => undefined,
      revokeKeysOfClient: async () => undefined,
    };
    await updateClient({ ...getAdmin(), apiKeys }, testAdminActor, { clientId, scopes: ['email', 'openid'] });
    await updateClient({ ...getAdmin(), apiKeys }, testAdminActor, { clientId, name: 'renamed' });
    await updateClient({ ...getAdmin(), apiKeys }, testAdminActor, { clientId, scopes: ['email', 'openid'] }); // a retry: no difference, still restricts
    expect(calls).toEqual([
      { clientId, granted: ['email', 'openid'], clientScopes: ['email', 'openid'] },
      { clientId, granted: ['email', 'openid'], clientScopes: ['email', 'openid'] },
    ]);
  });
});

describe('behaviour INTRO-2: introspect_all, the right to introspect every token', () => {
  it('is off by default, set on create for a confidential client, refused for a public one, and changed by PATCH', async () => {
    expect(jsonBody(await create({ type: 'confidential' })).introspect_all).toBe(false);
    const resourceServer = jsonBody(await create({ type: 'confidential', introspect_all: true }));
    expect(resourceServer.introspect_all).toBe(true);
    expect((await getClientRepository().get(String(resourceServer.client_id)))?.introspectAll).toBe(true);
    const refused = await create({ type: 'public', redirect_uris: ['https://a.example.test/cb'], introspect_all: true });
    expect(refused.statusCode).toBe(400);
    expect(jsonBody(refused).error_description).toBe('introspect_all: only a confidential client can introspect.');
    const patched = await patch(String(resourceServer.client_id), { introspect_all: false });
    expect(jsonBody(patched).introspect_all).toBe(false);
    const publicId = String(jsonBody(await create({ type: 'public', redirect_uris: ['https://a.example.test/cb'] })).client_id);
    expect((await patch(publicId, { introspect_all: true })).statusCode).toBe(400);
  });
});

/** Every stored item with this name, over every page of a scan of the main table. */
async function clientsNamed(name: string): Promise<unknown[]> {
  const found: unknown[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await getStorage().db.send(
      new ScanCommand({
        TableName: getStorage().tables.main,
        FilterExpression: '#n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': name },
        ExclusiveStartKey: start,
      }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

describe("behaviour REFRESH-7: refresh_grace_seconds, the client's own rotation grace window", () => {
  const app = { type: 'public', redirect_uris: ['https://a.example.test/cb'] };

  it('is null (the server setting) by default, set on create, changed and cleared by PATCH, each change audited', async () => {
    expect(jsonBody(await create(app)).refresh_grace_seconds).toBeNull();
    const created = jsonBody(await create({ ...app, refresh_grace_seconds: 30 }));
    const clientId = String(created.client_id);
    expect(created.refresh_grace_seconds).toBe(30);
    expect((await getClientRepository().get(clientId))?.refreshGraceSeconds).toBe(30);

    expect(jsonBody(await patch(clientId, { refresh_grace_seconds: 0 })).refresh_grace_seconds).toBe(0);
    expect((await getClientRepository().get(clientId))?.refreshGraceSeconds).toBe(0);
    const cleared = await patch(clientId, { refresh_grace_seconds: null });
    expect(cleared.statusCode).toBe(200);
    expect(jsonBody(cleared).refresh_grace_seconds).toBeNull();
    expect(await storedClient(clientId)).not.toHaveProperty('refreshGraceSeconds');
    const updates = (await auditPartition(`AUDIT#${clientId}`)).filter((e) => e.type === 'client.update');
    expect(updates.map((e) => e.reason)).toEqual(['refreshGraceSeconds', 'refreshGraceSeconds']);
  });

  it.each([
    [{ ...app, refresh_grace_seconds: 301 }, 'refresh_grace_seconds'],
    [{ ...app, refresh_grace_seconds: -1 }, 'refresh_grace_seconds'],
    [{ ...app, refresh_grace_seconds: 1.5 }, 'refresh_grace_seconds'],
    [{ ...app, refresh_grace_seconds: '30' }, 'refresh_grace_seconds'],
    [{ type: 'confidential', refresh_grace_seconds: 30 }, 'refresh_grace_seconds: only a client with the refresh_token grant'],
  ])('create refuses %j: 400 invalid_request naming the field, nothing written', async (body, named) => {
    const name = unique('Refused grace ');
    const refused = await create({ ...body, name });
    expect(refused.statusCode).toBe(400);
    expect(jsonBody(refused).error).toBe('invalid_request');
    expect(String(jsonBody(refused).error_description)).toContain(named);
    expect(await clientsNamed(name)).toEqual([]);
  });

  it('PATCH refuses a window out of bounds, or for a client without the refresh_token grant, and changes nothing', async () => {
    const appId = String(jsonBody(await create({ ...app, refresh_grace_seconds: 10 })).client_id);
    for (const wrong of [301, -1, 2.5, '10']) {
      const refused = await patch(appId, { refresh_grace_seconds: wrong });
      expect(refused.statusCode).toBe(400);
      expect(String(jsonBody(refused).error_description)).toContain('refresh_grace_seconds');
    }
    const serviceId = String(jsonBody(await create({ type: 'confidential' })).client_id);
    const refused = await patch(serviceId, { refresh_grace_seconds: 10 });
    expect(jsonBody(refused).error_description).toBe(
      'refresh_grace_seconds: only a client with the refresh_token grant rotates refresh tokens.',
    );
    expect((await getClientRepository().get(appId))?.refreshGraceSeconds).toBe(10);
    expect((await getClientRepository().get(serviceId))?.refreshGraceSeconds).toBeUndefined();
  });
});

describe('behaviour TOKEN-9: dpop_bound_access_tokens (RFC 9449 5.2)', () => {
  it('is off by default, set on create, changed by PATCH with its audit reason, and refused when not a boolean', async () => {
    expect(jsonBody(await create({ type: 'confidential' })).dpop_bound_access_tokens).toBe(false);
    const created = jsonBody(await create({ type: 'confidential', dpop_bound_access_tokens: true }));
    expect(created.dpop_bound_access_tokens).toBe(true);
    const clientId = String(created.client_id);
    expect((await getClientRepository().get(clientId))?.dpopBoundAccessTokens).toBe(true);
    const patched = await patch(clientId, { dpop_bound_access_tokens: false });
    expect(jsonBody(patched).dpop_bound_access_tokens).toBe(false);
    expect((await getClientRepository().get(clientId))?.dpopBoundAccessTokens).toBe(false);
    const refused = await patch(clientId, { dpop_bound_access_tokens: 'yes' });
    expect([refused.statusCode, jsonBody(refused).error]).toEqual([400, 'invalid_request']);
    expect((await getClientRepository().get(clientId))?.dpopBoundAccessTokens).toBe(false);
  });
});

describe('DELETE /api/admin/clients/{client_id}', () => {
  it('deletes the client; reading or deleting it again is 404', async () => {
    const clientId = String(jsonBody(await create({ type: 'confidential' })).client_id);
    const result = await callAdmin(deleteClient, { token, method: 'DELETE', pathParameters: { client_id: clientId } });
    expect(result.statusCode).toBe(204);
    expect((await callAdmin(getClient, { token, pathParameters: { client_id: clientId } })).statusCode).toBe(404);
    expect((await callAdmin(deleteClient, { token, method: 'DELETE', pathParameters: { client_id: clientId } })).statusCode).toBe(404);
  });
});
