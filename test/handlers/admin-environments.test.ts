/** /api/admin/environments, the grants of environments to users (`users_environments`), and /api/admin/scopes. */
import { deleteEnvironment as deleteEnvironmentOf } from '../../lambdas/core/admin/environments';
import { handler as postEnvironment } from '../../lambdas/handlers/admin/environments-create';
import { handler as deleteEnvironment } from '../../lambdas/handlers/admin/environments-delete';
import { handler as listEnvironments } from '../../lambdas/handlers/admin/environments-list';
import { handler as createScope } from '../../lambdas/handlers/admin/scopes-create';
import { handler as deleteScope } from '../../lambdas/handlers/admin/scopes-delete';
import { handler as listScopes } from '../../lambdas/handlers/admin/scopes-list';
import { handler as grant } from '../../lambdas/handlers/admin/user-environments-grant';
import { handler as listGrants } from '../../lambdas/handlers/admin/user-environments-list';
import { handler as revoke } from '../../lambdas/handlers/admin/user-environments-revoke';
import { getAdmin } from '../../lambdas/wiring/admin';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getClientRepository, getEnvironments } from '../../lambdas/wiring/repositories';
import { callAdmin, ensureScopes, testAdminActor } from '../support/admin-calls';
import { DynamoFaults } from '../support/dynamo-faults';
import { jsonBody } from '../support/events';
import { adminClientToken, createClient, createEnvironment, createUser, issueAccessToken, uniqueSuffix } from '../support/fixtures';

let token: string;
let adminClientId: string;
beforeAll(async () => {
  await ensureScopes('openid', 'admin');
  const admin = await adminClientToken();
  token = admin.token;
  adminClientId = admin.client.clientId;
});

const newEnvironment = (body: unknown) => callAdmin(postEnvironment, { token, method: 'POST', body });
const removeEnvironment = (id: string) => callAdmin(deleteEnvironment, { token, method: 'DELETE', pathParameters: { environment_id: id } });

describe('environments', () => {
  it('creates an environment with a generated id, and lists it', async () => {
    const result = await newEnvironment({ name: 'Staging' });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({ name: 'Staging', dcr: false, created_at: expect.any(String) });
    expect(String(body.id)).toMatch(/^env_/);
    const ids: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = jsonBody(await callAdmin(listEnvironments, { token, query: { limit: '100', ...(cursor ? { cursor } : {}) } }));
      ids.push(...(page.items as { id: string }[]).map((e) => e.id));
      cursor = page.next_cursor as string | undefined;
    } while (cursor);
    expect(ids).toContain(body.id);
  });

  it('creates an environment with a chosen id (usable as DCR_ENVIRONMENT_ID), and answers a taken id with 409', async () => {
    const id = `prod-${uniqueSuffix()}`;
    expect(jsonBody(await newEnvironment({ id, name: 'Production' })).id).toBe(id);
    const again = await newEnvironment({ id, name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(jsonBody(again).error).toBe('invalid_request');
  });

  it.each([
    ['a missing name', {}],
    ['an id with a space', { id: 'a b', name: 'x' }],
    ['an id longer than 64 characters', { id: 'a'.repeat(65), name: 'x' }],
  ])('answers %s with 400', async (_what, body) => {
    expect((await newEnvironment(body)).statusCode).toBe(400);
  });

  it("deletes an environment and its users' grants", async () => {
    const environmentId = await createEnvironment();
    const user = await createUser();
    await getEnvironments().grant(user.id, environmentId, new Date().toISOString());
    expect((await removeEnvironment(environmentId)).statusCode).toBe(204);
    expect(await getEnvironments().get(environmentId)).toBeUndefined();
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(false);
    expect((await removeEnvironment(environmentId)).statusCode).toBe(404);
  });

  it('refuses to delete an environment that still has clients, with 409', async () => {
    const client = await createClient();
    const result = await removeEnvironment(client.environmentId);
    expect(result.statusCode).toBe(409);
    expect(String(jsonBody(result).error_description)).toMatch(/still has clients/);
    expect(await getEnvironments().get(client.environmentId)).toBeDefined();
  });

  it('refuses to delete the DCR environment (DCR_ENVIRONMENT_ID), with 409', async () => {
    // Through the domain with its own DCR id: the shared DCR environment belongs to other test files.
    const environmentId = await createEnvironment();
    const refusal = deleteEnvironmentOf({ ...getAdmin(), dcrEnvironmentId: environmentId }, testAdminActor, environmentId);
    await expect(refusal).rejects.toMatchObject({ status: 409, description: expect.stringMatching(/DCR_ENVIRONMENT_ID/) });
    expect(await getEnvironments().get(environmentId)).toBeDefined();
  });
});

describe('environment grants (users_environments)', () => {
  const path = (userId: string, environmentId: string) => ({ user_id: userId, environment_id: environmentId });

  it('grants an environment idempotently, lists it with its name and grant time, and revokes it', async () => {
    const user = await createUser({ environments: [] });
    const environmentId = await createEnvironment('Grants');
    const first = await callAdmin(grant, { token, method: 'PUT', pathParameters: path(user.id, environmentId) });
    expect(first.statusCode).toBe(200);
    expect(jsonBody(first)).toMatchObject({ user_id: user.id, environment_id: environmentId, granted_at: expect.any(String) });
    const second = await callAdmin(grant, { token, method: 'PUT', pathParameters: path(user.id, environmentId) });
    expect(jsonBody(second).granted_at).toBe(jsonBody(first).granted_at);
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(true);

    const listed = jsonBody(await callAdmin(listGrants, { token, pathParameters: { user_id: user.id } }));
    expect(listed.items).toEqual([
      { id: environmentId, name: 'Grants', dcr: false, created_at: expect.any(String), granted_at: jsonBody(first).granted_at },
    ]);

    expect((await callAdmin(revoke, { token, method: 'DELETE', pathParameters: path(user.id, environmentId) })).statusCode).toBe(204);
    expect(await getEnvironments().hasAccess(user.id, environmentId)).toBe(false);
    expect(jsonBody(await callAdmin(listGrants, { token, pathParameters: { user_id: user.id } })).items).toEqual([]);
  });

  it('answers an unknown user or an unknown environment with 404, and writes no grant', async () => {
    const user = await createUser();
    const environmentId = await createEnvironment();
    for (const [handler, method] of [
      [grant, 'PUT'],
      [revoke, 'DELETE'],
    ] as const) {
      expect((await callAdmin(handler, { token, method, pathParameters: path('usr_nobody', environmentId) })).statusCode).toBe(404);
      expect((await callAdmin(handler, { token, method, pathParameters: path(user.id, 'env_nowhere') })).statusCode).toBe(404);
    }
    expect((await callAdmin(listGrants, { token, pathParameters: { user_id: 'usr_nobody' } })).statusCode).toBe(404);
    expect(await getEnvironments().hasAccess(user.id, 'env_nowhere')).toBe(false);
  });
});

describe('scopes', () => {
  it('creates a scope (RFC 6749 3.3 scope-token), unpublished unless asked, and lists it; a second create is 409', async () => {
    const name = `files:read-${uniqueSuffix()}`;
    const result = await callAdmin(createScope, { token, method: 'POST', body: { name, description: 'Read files' } });
    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toEqual({ name, description: 'Read files', discoverable: false });
    const listed = jsonBody(await callAdmin(listScopes, { token })).items as { name: string }[];
    expect(listed.map((s) => s.name)).toContain(name);
    expect((await callAdmin(createScope, { token, method: 'POST', body: { name } })).statusCode).toBe(409);
  });

  it.each([
    ['a space', 'two words'],
    ['a double quote', 'say"hi'],
    ['a backslash', 'back\\slash'],
    ['nothing', ''],
    ['a non-ASCII letter', 'café'],
  ])('answers a scope name with %s with 400 (RFC 6749 3.3)', async (_what, name) => {
    const result = await callAdmin(createScope, { token, method: 'POST', body: { name } });
    expect(result.statusCode).toBe(400);
    expect(String(jsonBody(result).error_description)).toMatch(/^name: /);
  });
});

describe('behaviour ADMIN-18: DELETE /api/admin/scopes/{name}', () => {
  const newScope = async () => {
    const name = `files:write-${uniqueSuffix()}`;
    expect((await callAdmin(createScope, { token, method: 'POST', body: { name } })).statusCode).toBe(201);
    return name;
  };
  const removeScope = (name: string, as = token) => callAdmin(deleteScope, { token: as, method: 'DELETE', pathParameters: { name } });
  const catalog = async () => (jsonBody(await callAdmin(listScopes, { token })).items as { name: string }[]).map((s) => s.name);
  const scopeEntries = async (name: string) => {
    const page = await getAuditLog().page({
      from: new Date(Date.now() - 600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
      types: ['scope.delete'],
      limit: 100,
    });
    return page.items.filter((entry) => entry.scope === name);
  };

  it('deletes a scope no client holds: 204, gone from the catalog, audited with the admin as actor', async () => {
    const name = await newScope();
    const result = await removeScope(name);
    expect(result.statusCode).toBe(204);
    expect(result.body).toBe('');
    expect(await catalog()).not.toContain(name);
    expect(await scopeEntries(name)).toEqual([
      expect.objectContaining({ type: 'scope.delete', scope: name, actor: { kind: 'admin-client', clientId: adminClientId } }),
    ]);
    // Gone means gone: a second delete is the not-found error, and writes no second entry.
    expect((await removeScope(name)).statusCode).toBe(404);
    expect(await scopeEntries(name)).toHaveLength(1);
  });

  it('a delete whose reply is lost is retried by the client and still answers 204 with its audit entry (a retry is not a not-found)', async () => {
    const name = await newScope();
    // The delete is a transaction with the catalog version (behaviour ADMIN-18).
    const faults = DynamoFaults.install().fail({
      operation: 'TransactWriteItems',
      phase: 'after',
      times: 1,
      where: (attempt) => JSON.stringify(attempt.input).includes(name),
    });
    let result: Awaited<ReturnType<typeof removeScope>>;
    try {
      result = await removeScope(name);
    } finally {
      faults.uninstall();
    }
    expect(faults.injected).toEqual([{ operation: 'TransactWriteItems', phase: 'after' }]);
    expect(result.statusCode).toBe(204);
    expect(await catalog()).not.toContain(name);
    expect(await scopeEntries(name)).toHaveLength(1);
  });

  it('deletes any RFC 6749 3.3 scope-token, also one with / and ? (percent-encoded in the URL path)', async () => {
    const name = `https://api.example.test/files?x=${uniqueSuffix()}`;
    expect((await callAdmin(createScope, { token, method: 'POST', body: { name } })).statusCode).toBe(201);
    expect((await removeScope(name)).statusCode).toBe(204);
    expect(await catalog()).not.toContain(name);
  });

  it('answers an unknown scope with 404 not_found and writes no audit entry', async () => {
    const name = `never-created-${uniqueSuffix()}`;
    const result = await removeScope(name);
    expect(result.statusCode).toBe(404);
    expect(jsonBody(result).error).toBe('not_found');
    expect(await scopeEntries(name)).toEqual([]);
  });

  it.each([
    ['a space', 'two words'],
    ['a double quote', 'say"hi'],
    ['a non-ASCII letter', 'café'],
    ['more than 128 characters', 'x'.repeat(129)],
  ])('answers a name with %s with 400 invalid_request (RFC 6749 3.3 scope-token)', async (_what, name) => {
    const result = await removeScope(name);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/^name: /) });
  });

  it('refuses with 409 while clients (static or dynamic) hold the scope, counting and naming them; nothing is deleted', async () => {
    const name = await newScope();
    const holders = [
      await createClient({ scopes: ['openid', name] }),
      await createClient({ scopes: [name], registrationType: 'dynamic', type: 'public' }),
    ];
    const result = await removeScope(name);
    expect(result.statusCode).toBe(409);
    const body = jsonBody(result);
    expect(body.error).toBe('invalid_request');
    expect(String(body.error_description)).toMatch(/granted to 2 clients/);
    for (const client of holders) expect(String(body.error_description)).toContain(client.clientId);
    expect(await catalog()).toContain(name);
    expect((await getClientRepository().get(holders[0]!.clientId))?.scopes).toEqual(['openid', name]);
    expect(await scopeEntries(name)).toEqual([]);
  });

  it('counts each client once (not its read copies), names at most 3, and ignores an unused dynamic client past its expiry', async () => {
    const name = await newScope();
    for (let i = 0; i < 4; i += 1) await createClient({ scopes: [name] });
    // A used dynamic client counts; an unused one past its expiry (TTL not yet run) does not.
    const used = await createClient({ scopes: [name], registrationType: 'dynamic', type: 'public' });
    const stale = { ...used, clientId: `${used.clientId}x` };
    await getClientRepository().create(stale, Math.floor(Date.now() / 1000) - 60);
    const description = String(jsonBody(await removeScope(name)).error_description);
    expect(description).toMatch(/granted to 5 clients/);
    expect(description).not.toContain(stale.clientId);
    expect(description.match(/"[^"]+"/g)).toHaveLength(1 + 3);
  });

  it('deletes the scope once its last holder no longer has it', async () => {
    const name = await newScope();
    const client = await createClient({ scopes: [name] });
    expect((await removeScope(name)).statusCode).toBe(409);
    await getClientRepository().update(client.clientId, { scopes: [] });
    expect((await removeScope(name)).statusCode).toBe(204);
  });

  it.each(['openid', 'admin'])('refuses the built-in scope %s with 409, whether or not a client holds it', async (name) => {
    const result = await removeScope(name);
    expect(result.statusCode).toBe(409);
    expect(String(jsonBody(result).error_description)).toMatch(/built in/);
    expect(await catalog()).toContain(name);
  });

  it('refuses a non-admin token with 403 and no token with 401 (behaviour ADMIN-1); the scope stays', async () => {
    const name = await newScope();
    const client = await createClient({ scopes: ['openid'] });
    const plain = (await issueAccessToken({ clientId: client.clientId, scopes: ['openid'] })).token;
    expect((await removeScope(name, plain)).statusCode).toBe(403);
    expect((await callAdmin(deleteScope, { method: 'DELETE', pathParameters: { name } })).statusCode).toBe(401);
    expect(await catalog()).toContain(name);
  });
});
