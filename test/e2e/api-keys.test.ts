/**
 * API keys end to end against the local server, over HTTP as an operator and a service
 * would (README "API keys"): an admin creates a key, the service exchanges it (header and
 * body), a resource server validates the token, the user manages its own keys and reads
 * the notification in the outbox, a failed notification revokes the key, and a revoked
 * key fails exactly like an unknown one (behaviour KEYX-3, KEYM-1..KEYM-7, KEY-8).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LocalApp } from '../../lambdas/local/app';
import { createAccessTokenVerifier } from '../../lambdas/resource-server';
import { call as callServer, signIn as signInServer, type CallOptions } from '../support/local-http';
import { startE2eApp } from '../support/e2e-app';
import { createUserOverHttp } from '../support/fixtures';

const resource = 'https://reports.example.test/api';

let app: LocalApp;
let adminToken: string;
let clientId: string;
let userId: string;

const call = (method: string, path: string, options: CallOptions = {}) => callServer(app.url, method, path, options);

beforeAll(async () => {
  ({ app, adminToken } = await startE2eApp({ name: 'e2e-keys', env: { MAIL_OUTBOX_DIR: undefined } }));
  await call('POST', '/api/admin/scopes', { token: adminToken, body: { name: 'reports:read' } });
  const client = await call('POST', '/api/admin/clients', {
    token: adminToken,
    body: {
      type: 'confidential',
      name: 'Reports',
      environment_id: app.bootstrap.environments.defaultId,
      scopes: ['reports:read', 'email'],
    },
  });
  expect(client.status).toBe(201);
  clientId = String(client.json.client_id);
  // Key exchanges re-check the bound user's grant of the client's environment (behaviour KEYX-3).
  const owner = await createUserOverHttp(app.url, adminToken, {
    name: 'Service owner',
    withPassword: false,
    environments: [app.bootstrap.environments.defaultId],
  });
  userId = owner.id;
});

afterAll(async () => {
  await app.close();
});

it('the local server writes mail to <DATA_DIR>/outbox', () => {
  expect(app.outboxDir).toBe(join(app.dataDir, 'outbox'));
});

it('README walk-through: an admin creates a key, a service exchanges it, a resource server accepts the token, the admin revokes it', async () => {
  const created = await call('POST', `/api/admin/clients/${clientId}/api-keys`, {
    token: adminToken,
    body: { userId, name: 'nightly export' },
  });
  expect(created.status).toBe(201);
  const apiKey = String(created.json.api_key);
  expect(apiKey).toMatch(/^tgk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);

  const exchanged = await call('POST', '/api/token/api-key', { token: apiKey, form: { scope: 'reports:read', resource } });
  expect(exchanged.status).toBe(200);
  expect(exchanged.headers.get('cache-control')).toBe('no-store');
  expect(exchanged.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'reports:read' });
  expect(exchanged.json).not.toHaveProperty('refresh_token');

  const verify = createAccessTokenVerifier({ issuer: app.url, jwksUri: `${app.url}/jwks.json`, resource });
  const claims = await verify(`Bearer ${String(exchanged.json.access_token)}`);
  expect(claims).toMatchObject({ sub: userId, aud: resource, api_key_id: created.json.key_id, client_id: clientId });

  const viaBody = await call('POST', '/api/token/api-key', { body: { api_key: apiKey } });
  expect(viaBody.status).toBe(200);
  expect(viaBody.json.scope).toBe('reports:read email');

  const listed = await call('GET', `/api/admin/clients/${clientId}/api-keys`, { token: adminToken });
  expect(listed.text).not.toContain(String(created.json.secret));
  expect(
    (listed.json.items as { key_id: string; last_used_at: string | null }[]).find((k) => k.key_id === created.json.key_id)?.last_used_at,
  ).not.toBeNull();

  const revoked = await call('DELETE', `/api/admin/clients/${clientId}/api-keys/${created.json.key_id}`, { token: adminToken });
  expect(revoked.status).toBe(200);
  expect(revoked.json.status).toBe('revoked');

  // Behaviour KEYX-3: the revoked key now fails exactly like a key id that never existed.
  const afterRevoke = await call('POST', '/api/token/api-key', { token: apiKey });
  const unknown = await call('POST', '/api/token/api-key', { token: `tgk_${'0'.repeat(16)}_${String(created.json.secret)}` });
  expect(afterRevoke.status).toBe(401);
  expect(afterRevoke.text).toBe(unknown.text);
  expect([...afterRevoke.headers.entries()].filter(([n]) => n !== 'date')).toEqual(
    [...unknown.headers.entries()].filter(([n]) => n !== 'date'),
  );
});

it('behaviour KEYM-2 condition 3: a token minted by an API key cannot manage keys, refused like any non-admin token', async () => {
  const bootstrapKey = await call('POST', `/api/admin/clients/${clientId}/api-keys`, {
    token: adminToken,
    body: { userId, scopes: ['email'] },
  });
  const keyToken = String((await call('POST', '/api/token/api-key', { token: String(bootstrapKey.json.api_key) })).json.access_token);
  // A token minted by a key is refused, word for word like any non-admin token (behaviour KEYM-2 condition 3).
  const refused = await call('POST', `/api/admin/clients/${clientId}/api-keys`, { token: keyToken, body: {} });
  const plain = await call('GET', '/api/admin/users', { token: keyToken });
  expect(refused.status).toBe(403);
  expect(refused.text).toBe(plain.text);
});

it('self-service with a real sign-in token: mail on success; an undeliverable mail revokes the key and fails the call', async () => {
  // A public client and a password user, signed in through the authorization code flow.
  const { email, password } = await createUserOverHttp(app.url, adminToken, {
    name: 'Self',
    environments: [app.bootstrap.environments.defaultId],
  });
  const redirectUri = 'http://127.0.0.1:9999/callback';
  const app2 = await call('POST', '/api/admin/clients', {
    token: adminToken,
    body: {
      type: 'public',
      name: 'Self app',
      environment_id: app.bootstrap.environments.defaultId,
      redirect_uris: [redirectUri],
      scopes: ['openid', 'email'],
    },
  });
  const publicClientId = String(app2.json.client_id);
  const token = await signIn(publicClientId, redirectUri, email, password);

  const created = await call('POST', `/api/admin/clients/${publicClientId}/api-keys`, { token, body: { name: 'cli' } });
  expect(created.status).toBe(201);
  const mails = readdirSync(app.outboxDir).map(
    (n) => JSON.parse(readFileSync(join(app.outboxDir, n), 'utf8')) as { to: string; text: string },
  );
  const mail = mails.find((m) => m.text.includes(String(created.json.key_id)));
  expect(mail?.to).toBe(email);
  expect(JSON.stringify(mail)).not.toContain(String(created.json.secret));

  // Fault injection: the outbox folder replaced by a file, so the local mailer cannot deliver.
  rmSync(app.outboxDir, { recursive: true, force: true });
  writeFileSync(app.outboxDir, '');
  try {
    const failed = await call('POST', `/api/admin/clients/${publicClientId}/api-keys`, { token, body: { name: 'cli 2' } });
    expect(failed.status).toBe(503);
    expect(failed.json.error).toBe('temporarily_unavailable');
  } finally {
    rmSync(app.outboxDir, { force: true });
  }
  const listed = await call('GET', `/api/admin/clients/${publicClientId}/api-keys`, { token });
  const byName = Object.fromEntries((listed.json.items as { name: string; status: string }[]).map((k) => [k.name, k.status]));
  expect(byName).toEqual({ cli: 'active', 'cli 2': 'revoked' });
});

it('behaviour KEYM-2: a dynamically registered client cannot turn one consent into an API key (the plain non-admin 403)', async () => {
  const { email, password } = await createUserOverHttp(app.url, adminToken, {
    name: 'DCR user',
    environments: [app.bootstrap.environments.dcrId],
  });
  const redirectUri = 'http://127.0.0.1:9999/callback';
  const registered = await call('POST', '/api/register', { body: { client_name: 'Anyone', redirect_uris: [redirectUri] } });
  expect(registered.status).toBe(201);
  const dynamicId = String(registered.json.client_id);
  const token = await signIn(dynamicId, redirectUri, email, password, 'openid');

  const refused = await call('POST', `/api/admin/clients/${dynamicId}/api-keys`, { token, body: {} });
  const plain = await call('GET', '/api/admin/users', { token });
  expect(refused.status).toBe(403);
  expect(refused.text).toBe(plain.text);
  expect((await call('GET', `/api/admin/clients/${dynamicId}/api-keys`, { token })).text).toBe(plain.text);
  expect((await call('GET', `/api/admin/clients/${dynamicId}/api-keys`, { token: adminToken })).json.items).toEqual([]);
});

it("behaviour ENV-2: after DELETE of the user's environment grant, the user's keys stop exchanging (uniform 401), and work again once re-granted", async () => {
  const { id: owner } = await createUserOverHttp(app.url, adminToken, {
    name: 'Grant owner',
    withPassword: false,
    environments: [app.bootstrap.environments.defaultId],
  });
  const grantPath = `/api/admin/users/${owner}/environments/${app.bootstrap.environments.defaultId}`;
  const created = await call('POST', `/api/admin/clients/${clientId}/api-keys`, { token: adminToken, body: { userId: owner } });
  const key = String(created.json.api_key);
  expect((await call('POST', '/api/token/api-key', { token: key })).status).toBe(200);
  expect((await call('POST', '/api/token/api-key', { token: key })).status).toBe(200); // a repeat, from the verified-key cache

  expect((await call('DELETE', grantPath, { token: adminToken })).status).toBe(204);
  const refused = await call('POST', '/api/token/api-key', { token: key });
  expect(refused.status).toBe(401);
  expect(refused.json).toEqual({ error: 'invalid_client', error_description: 'The API key is invalid.' });

  await call('PUT', grantPath, { token: adminToken });
  expect((await call('POST', '/api/token/api-key', { token: key })).status).toBe(200);
});

async function signIn(clientId: string, redirectUri: string, email: string, password: string, scope?: string): Promise<string> {
  return (await signInServer(app.url, { clientId, redirectUri, email, password, ...(scope ? { scope } : {}) })).access_token;
}
