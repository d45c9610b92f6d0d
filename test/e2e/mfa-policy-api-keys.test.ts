/**
 * Driven over HTTP against the local server (behaviour MFA-9,
 * MFA-11, MFA-12; RFC 9470 3): after the policy tightens, the refresh token of a password-only
 * sign-in is refused, and so is its access token at the self-service key routes, so it cannot
 * turn into an API key (which never expires) that keeps minting tokens under the new policy.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalApp } from '../../lambdas/local/app';
import { call, CookieBrowser } from '../support/local-http';
import { startE2eApp } from '../support/e2e-app';
import { createUserOverHttp } from '../support/fixtures';

const outbox = join(mkdtempSync(join(tmpdir(), 'mfa-keys-')), 'outbox');
const redirectUri = 'http://localhost:9999/cb';
let app: LocalApp;
let adminToken: string;

beforeAll(async () => {
  ({ app, adminToken } = await startE2eApp({
    name: 'mfakeys',
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', MAIL_OUTBOX_DIR: outbox },
  }));
});

afterAll(async () => {
  await app?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the admin API's JSON, read as the tests need it
const admin = (method: string, path: string, body?: unknown, token = adminToken): Promise<{ status: number; json: any }> =>
  call(app.url, method, path, { token, ...(body === undefined ? {} : { body }) });

/** A browser on this file's server (test/support/local-http.ts). */
class Browser extends CookieBrowser {
  constructor() {
    super(() => app.url);
  }
}

describe('MFA-9: a stricter policy reaches what a password-only sign-in can still create', () => {
  afterEach(async () => {
    await admin('PATCH', '/api/admin/settings', { mfa_policy: null });
  });

  test('its access token creates no API key once the policy asks for a second factor: 401 insufficient_user_authentication (behaviour MFA-11)', async () => {
    expect((await admin('PATCH', '/api/admin/settings', { mfa_policy: 'off' })).status).toBe(200);
    const user = await createUserOverHttp(app.url, adminToken);
    await admin('PUT', `/api/admin/users/${user.id}/environments/${app.bootstrap.environments.defaultId}`);
    const client = await admin('POST', '/api/admin/clients', {
      type: 'public',
      name: 'App',
      environment_id: app.bootstrap.environments.defaultId,
      redirect_uris: [redirectUri],
      scopes: ['openid', 'profile'],
    });
    const clientId = client.json.client_id as string;

    // A password-only sign-in (policy off) and its tokens.
    const browser = new Browser();
    expect((await browser.request('POST', '/api/auth/signin', { email: user.email, password: user.password })).status).toBe(200);
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'openid profile',
      state: 's',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const authorized = await browser.request('GET', `/api/authorize?${query}`);
    const code = new URL(authorized.location!).searchParams.get('code')!;
    const tokenResponse = await fetch(`${app.url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
      }),
    });
    const tokens = (await tokenResponse.json()) as { access_token: string; refresh_token: string };

    // The policy now asks everyone for a second factor: the refresh is refused (holds).
    expect((await admin('PATCH', '/api/admin/settings', { mfa_policy: 'everyone' })).status).toBe(200);
    const refreshed = await fetch(`${app.url}/api/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token }),
    });
    expect(refreshed.status).toBe(400);

    // But the same sign-in's access token still turns into a key that never expires.
    const key = await admin('POST', `/api/admin/clients/${clientId}/api-keys`, { name: 'made without the factor' }, tokens.access_token);
    const exchanged = key.json.api_key
      ? await fetch(`${app.url}/api/token/api-key`, { method: 'POST', headers: { authorization: `Bearer ${key.json.api_key}` } })
      : undefined;
    expect({ create: key.status, exchange: exchanged?.status }).toEqual({ create: 401, exchange: undefined });
    expect(key.json).toEqual({ error: 'insufficient_user_authentication', error_description: expect.stringMatching(/second factor/) });
  });
});
