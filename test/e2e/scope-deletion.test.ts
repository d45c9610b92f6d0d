/**
 * Behaviour ADMIN-18 through the local server's router, as an operator would do it with curl:
 * the name percent-encoded in the path (a scope-token may hold `/` and `:`), refused while a
 * client holds it, deleted once the admin removed it from that client (after which the client
 * gets no token for it); a built-in scope is refused.
 */
import type { LocalApp } from '../../lambdas/local/app';
import { startE2eApp } from '../support/e2e-app';
import { call, clientCredentialsToken } from '../support/local-http';

let app: LocalApp;
let adminToken: string;

beforeAll(async () => {
  ({ app, adminToken } = await startE2eApp({ name: 'e2e-scope' }));
}, 60_000);

afterAll(async () => {
  await app?.close();
});

const asAdmin = (method: string, path: string, body?: unknown) =>
  call(app.url, method, path, { token: adminToken, ...(body !== undefined ? { body } : {}) });

it('behaviour ADMIN-18: DELETE /api/admin/scopes/{percent-encoded name}: 409 while a client holds it, 204 once it does not', async () => {
  const name = 'https://files.example.test/write';
  const path = `/api/admin/scopes/${encodeURIComponent(name)}`;
  expect((await asAdmin('POST', '/api/admin/scopes', { name })).status).toBe(201);
  const created = await asAdmin('POST', '/api/admin/clients', {
    type: 'confidential',
    name: 'Files worker',
    environment_id: app.bootstrap.environments.defaultId,
    grant_types: ['client_credentials'],
    scopes: [name],
  });
  expect(created.status).toBe(201);
  const clientId = String(created.json.client_id);
  const secret = String(created.json.client_secret);
  expect(await clientCredentialsToken(app.url, clientId, secret, name)).toEqual(expect.any(String));

  const refused = await asAdmin('DELETE', path);
  expect(refused.status).toBe(409);
  expect(refused.json.error_description).toBe(`The scope "${name}" is granted to 1 client ("${clientId}"); remove it from them first.`);

  expect((await asAdmin('PATCH', `/api/admin/clients/${clientId}`, { scopes: [] })).status).toBe(200);
  const deleted = await asAdmin('DELETE', path);
  expect(deleted.status).toBe(204);
  expect(deleted.text).toBe('');
  expect(((await asAdmin('GET', '/api/admin/scopes')).json.items as { name: string }[]).map((s) => s.name)).not.toContain(name);
  expect((await asAdmin('DELETE', path)).status).toBe(404);
  await expect(clientCredentialsToken(app.url, clientId, secret, name)).rejects.toThrow();

  const openid = await asAdmin('DELETE', '/api/admin/scopes/openid');
  expect(openid.status).toBe(409);
  expect(openid.json.error_description).toMatch(/^The scope "openid" is built in/);
});
