/**
 * The account flows end to end against the local server, with mail read from the
 * outbox folder as a user reads their inbox, and oauth4webapi as the client: an admin's
 * sign-in with the mailed code inside an authorization code flow (ID token amr and auth_time,
 * RFC 8176, OIDC Core 2), then a password reset that ends everything the old password started
 * (behaviour RESET-7; OWASP ASVS 6.3.7): the refresh token gets invalid_grant, the session is gone, the old
 * password is refused.
 */
import * as oauth from 'oauth4webapi';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalApp } from '../../lambdas/local/app';
import { hiddenField } from '../support/authorization';
import { startE2eApp } from '../support/e2e-app';
import { adminApi } from '../support/local-http';
import { createUserOverHttp } from '../support/fixtures';

const redirectUri = 'http://127.0.0.1:9999/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const outbox = join(mkdtempSync(join(tmpdir(), 'account-e2e-')), 'outbox');

let app: LocalApp;
let as: oauth.AuthorizationServer;
let adminToken: string;
let client: oauth.Client;
let user: { id: string; email: string; password: string };

const admin = adminApi(
  () => app.url,
  () => adminToken,
);

const form = (path: string, fields: Record<string, string>, cookie?: string) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields),
  });

/** The newest mail to `to` whose text matches, waiting briefly for mail sent off the request path. */
async function mailMatching(to: string, pattern: RegExp): Promise<RegExpExecArray> {
  for (let i = 0; i < 50; i++) {
    const mails = readdirSync(outbox, { withFileTypes: true })
      .filter((entry) => entry.name.endsWith('.json'))
      .map((entry) => JSON.parse(readFileSync(join(outbox, entry.name), 'utf8')) as { to: string; text: string })
      .filter((mail) => mail.to === to);
    for (const mail of mails.reverse()) {
      const match = pattern.exec(mail.text);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

beforeAll(async () => {
  ({ app, as, adminToken } = await startE2eApp({ name: 'acct', env: { MAIL_OUTBOX_DIR: outbox } }));
  // An admin user: MFA_POLICY defaults to `admins`, so this sign-in needs the mailed code.
  user = await createUserOverHttp(app.url, adminToken, {
    name: 'Grace',
    admin: true,
    environments: [app.bootstrap.environments.defaultId],
  });
  const registered = await admin('POST', '/api/admin/clients', {
    type: 'public',
    name: 'Account E2E app',
    environment_id: app.bootstrap.environments.defaultId,
    redirect_uris: [redirectUri],
    scopes: ['openid', 'profile', 'email'],
  });
  client = { client_id: String(registered.client_id) };
});

afterAll(async () => {
  await app.close();
});

/** Authorization code + PKCE with the password and the mailed code; the token response and the session cookie. */
async function authorizeWithCode(): Promise<{ tokens: oauth.TokenEndpointResponse; cookie: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'openid email',
    state,
    nonce,
  }).toString();
  const page = await fetch(url, { headers: { accept: 'text/html' } });
  const requestId = hiddenField(await page.text(), 'request_id');
  const passwordStep = await form('/api/authorize', { request_id: requestId, email: user.email, password: user.password });
  expect(passwordStep.status).toBe(200);
  expect(passwordStep.headers.get('set-cookie')).toBeNull();
  const codePage = await passwordStep.text();
  const [, code] = await mailMatching(user.email, /sign-in code is ([0-9]{6})/);
  const codeStep = await form('/api/auth/otp', {
    challenge_id: hiddenField(codePage, 'challenge_id'),
    request_id: hiddenField(codePage, 'request_id'),
    code: code!,
  });
  expect(codeStep.status).toBe(303);
  const cookie = codeStep.headers.get('set-cookie')!.split(';')[0]!;
  const params = oauth.validateAuthResponse(as, client, new URL(codeStep.headers.get('location')!), state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure);
  return {
    tokens: await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: nonce, requireIdToken: true }),
    cookie,
  };
}

describe('sign-in with the mailed code inside the authorization code flow (behaviour MFA-6, CLAIM-11)', () => {
  it('the code redeems; the ID token says how and when the user authenticated (amr pwd otp mfa, auth_time)', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { tokens } = await authorizeWithCode();
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims.sub).toBe(user.id);
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.auth_time).toBeGreaterThanOrEqual(before - 1);
    expect(claims.email_verified).toBe(false);
  });
});

describe('password reset ends what the old password started (behaviour RESET-7)', () => {
  it('after the reset: the old refresh token gets invalid_grant, the old session is gone, the old password is refused', async () => {
    const { tokens, cookie } = await authorizeWithCode();
    expect((await fetch(`${app.url}/api/auth/session`, { headers: { cookie } })).status).toBe(200);

    expect((await form('/forgot-password', { email: user.email })).status).toBe(200);
    const [, token] = await mailMatching(user.email, /\/reset-password\?token=([A-Za-z0-9_-]{43})/);
    const resetPage = await fetch(`${app.url}/reset-password?token=${token}`, { headers: { accept: 'text/html' } });
    expect(resetPage.status).toBe(200);
    const newPassword = `new-${randomUUID()}`;
    const reset = await form('/reset-password', { token: token!, password: newPassword, password_confirmation: newPassword });
    expect(reset.status).toBe(200);
    expect(reset.headers.get('set-cookie') ?? '').not.toMatch(/session=/); // nobody signed in
    await mailMatching(user.email, /password of your account was just changed/);

    const refreshed = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, refreshed)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await fetch(`${app.url}/api/auth/session`, { headers: { cookie } })).status).toBe(401);
    const oldPassword = await form('/api/auth/signin', { email: user.email, password: user.password });
    expect(oldPassword.status).toBe(401);
    user = { ...user, password: newPassword };
    // The new password still needs the code: the reset signed nobody in (ASVS 6.4.3).
    const newSignIn = await form('/api/auth/signin', { email: user.email, password: newPassword });
    expect(newSignIn.status).toBe(200);
    expect(newSignIn.headers.get('set-cookie')).toBeNull();
    expect(await newSignIn.text()).toContain('Enter your code');
  });
});
