/**
 * Pushed authorization requests (RFC 9126) against the local server with oauth4webapi, an
 * independent client library: discovery names the endpoint, a confidential client pushes with
 * client_secret_basic and a public one with its client_id, the browser goes to /api/authorize
 * with client_id and request_uri only, and the code is redeemed for tokens. Behaviour
 * AUTHZ-14, AUTHZ-16, AUTHZ-17.
 */
import * as oauth from 'oauth4webapi';
import type { LocalApp } from '../../lambdas/local/app';
import { hiddenField } from '../support/authorization';
import { startE2eApp } from '../support/e2e-app';
import { adminApi, insecure } from '../support/local-http';
import { createUserOverHttp } from '../support/fixtures';

const redirectUri = 'http://127.0.0.1:9999/callback';

let app: LocalApp;
let as: oauth.AuthorizationServer;
let adminToken: string;
let user: { email: string; password: string; id: string };

const admin = adminApi(
  () => app.url,
  () => adminToken,
);

beforeAll(async () => {
  ({ app, as, adminToken } = await startE2eApp({ name: 'e2e', env: { MFA_POLICY: 'off' } }));
  user = await createUserOverHttp(app.url, adminToken, { name: 'Par', environments: [app.bootstrap.environments.defaultId] });
});

afterAll(async () => {
  await app.close();
});

async function createAppClient(type: 'public' | 'confidential'): Promise<{ client: oauth.Client; auth: oauth.ClientAuth }> {
  const created = await admin('POST', '/api/admin/clients', {
    type,
    name: `PAR ${type} app`,
    environment_id: app.bootstrap.environments.defaultId,
    redirect_uris: [redirectUri],
    scopes: ['openid', 'profile'],
    ...(type === 'confidential' ? { grant_types: ['authorization_code', 'refresh_token'] } : {}),
  });
  const client = { client_id: String(created.client_id) };
  return { client, auth: type === 'confidential' ? oauth.ClientSecretBasic(String(created.client_secret)) : oauth.None() };
}

/** Push, send the browser with client_id and request_uri, sign in, redeem: the token response. */
async function pushedFlow({ client, auth }: { client: oauth.Client; auth: oauth.ClientAuth }) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const pushed = await oauth.processPushedAuthorizationResponse(
    as,
    client,
    await oauth.pushedAuthorizationRequest(
      as,
      client,
      auth,
      {
        response_type: 'code',
        redirect_uri: redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        scope: 'openid profile',
        state,
      },
      insecure,
    ),
  );
  expect(pushed.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
  expect(pushed.expires_in).toBe(60);

  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({ client_id: client.client_id, request_uri: pushed.request_uri }).toString();
  const page = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
  expect(page.status).toBe(200);
  const signIn = await fetch(`${app.url}/api/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html' },
    body: new URLSearchParams({ request_id: hiddenField(await page.text(), 'request_id'), email: user.email, password: user.password }),
  });
  expect(signIn.status).toBe(303);
  const params = oauth.validateAuthResponse(as, client, new URL(signIn.headers.get('location')!), state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirectUri, verifier, insecure),
    { requireIdToken: true },
  );
  // The same request_uri a second time: an error page (single use, RFC 9126 4).
  const again = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
  expect(again.status).toBe(400);
  expect(again.headers.get('location')).toBeNull();
  return tokens;
}

describe('Pushed authorization requests (RFC 9126) with oauth4webapi against npm start', () => {
  it('discovery names pushed_authorization_request_endpoint and does not require it by default (RFC 9126 5)', () => {
    expect(as.pushed_authorization_request_endpoint).toBe(`${app.url}/api/par`);
    expect(as.require_pushed_authorization_requests).toBe(false);
  });

  it('a confidential client pushes with client_secret_basic and gets tokens for the pushed scopes', async () => {
    const tokens = await pushedFlow(await createAppClient('confidential'));
    expect(tokens.scope).toBe('openid profile');
    expect(oauth.getValidatedIdTokenClaims(tokens)!.sub).toBe(user.id);
  });

  it('a public client pushes with its client_id alone (RFC 9126 2) and gets tokens', async () => {
    const tokens = await pushedFlow(await createAppClient('public'));
    expect(tokens.access_token).toEqual(expect.any(String));
  });

  it('a push without the confidential client’s secret is 401 invalid_client', async () => {
    const { client } = await createAppClient('confidential');
    const response = await oauth.pushedAuthorizationRequest(
      as,
      client,
      oauth.None(),
      { response_type: 'code', redirect_uri: redirectUri },
      insecure,
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });
});
