/**
 * The authorization code flow through the local server over HTTP, driven as a browser
 * drives it: no JavaScript, form posts, redirects read by hand (redirect: 'manual') and
 * the session cookie carried between requests. Behaviour AUTHZ-1..AUTHZ-9; OAuth 2.1 4.1; RFC 7636; RFC 9207.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '../../lambdas/core/model';
import { verifyPkce } from '../../lambdas/core/pkce';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { authorizeQuery, hiddenField, pkcePair } from '../support/authorization';
import { createClient } from '../support/fixtures';

let app: LocalApp;
let client: Client;
let dynamicClient: Client;

beforeAll(async () => {
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `authz-${randomUUID().slice(0, 8)}-`,
    // These sign in the seeded admin to test authorization itself; the mailed code is tested in
    // test/handlers/sign-in-code.test.ts and test/browser/account.test.ts.
    env: { MFA_POLICY: 'off', HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL },
  });
  // startLocalApp pointed this process's wiring at its tables.
  const publicApp = { kind: 'app', scopes: ['openid', 'profile'], test: false } as const;
  client = await createClient({
    ...publicApp,
    name: 'Local Test App',
    environmentId: app.bootstrap.environments.defaultId,
    redirectUris: ['http://127.0.0.1:9999/callback'],
  });
  dynamicClient = await createClient({
    ...publicApp,
    name: 'Self-registered MCP client',
    environmentId: app.bootstrap.environments.dcrId,
    redirectUris: ['http://127.0.0.1:9998/cb'],
    registrationType: 'dynamic',
  });
});

afterAll(async () => {
  await app.close();
});

/** A browser: sends Accept and (on posts) Origin, keeps the one session cookie, never follows redirects. */
function browser() {
  let cookie: string | undefined;
  const request = async (path: string, init: { form?: Record<string, string> } = {}) => {
    const response = await fetch(`${app.url}${path}`, {
      method: init.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        Accept: 'text/html',
        ...(cookie ? { Cookie: cookie } : {}),
        ...(init.form ? { 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    // The session cookie comes first; a completed sign-in adds the device cookie (behaviour PWFAIL-3).
    const setCookies = response.headers.getSetCookie();
    const setCookie = setCookies[0] ?? null;
    if (setCookie) cookie = setCookie.split(';')[0];
    return { response, body: await response.text(), setCookie, setCookies };
  };
  return { request, cookie: () => cookie };
}

function authorizePath(target: Client, challenge: string, state: string): string {
  const query = authorizeQuery(target, { code_challenge: challenge, state, resource: 'https://mcp.example.test/' });
  return `/api/authorize?${new URLSearchParams(query).toString()}`;
}

describe('authorization code flow over HTTP against the local server', () => {
  it('GET /api/authorize, the sign-in form, then a 303 to the redirect URI with code, state and iss; later requests reuse the session', async () => {
    const { verifier, challenge } = pkcePair();
    const b = browser();

    const start = await b.request(authorizePath(client, challenge, 'state-1'));
    expect(start.response.status).toBe(200);
    expect(start.body).toContain('<form method="post" action="/api/authorize">');

    const { email, password } = app.bootstrap.admin;
    const signedIn = await b.request('/api/authorize', { form: { request_id: hiddenField(start.body, 'request_id'), email, password } });
    expect(signedIn.response.status).toBe(303);
    // Local http issuer: the cookie is not Secure, and not __Host- prefixed.
    expect(signedIn.setCookie).toMatch(/^session=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(signedIn.setCookies[1]).toMatch(/^device=v1\.[^;]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict$/);
    const location = new URL(signedIn.response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:9999/callback');
    expect(location.searchParams.get('state')).toBe('state-1');
    expect(location.searchParams.get('iss')).toBe(app.url);
    const code = location.searchParams.get('code')!;

    const stored = await getTokenStore().getCode(code, Math.floor(Date.now() / 1000));
    expect(stored).toMatchObject({ clientId: client.clientId, userId: app.bootstrap.admin.userId, resource: 'https://mcp.example.test/' });
    expect(verifyPkce(verifier, stored!.codeChallenge)).toBe(true);

    const session = await b.request('/api/auth/session');
    expect(JSON.parse(session.body)).toMatchObject({ user: { id: app.bootstrap.admin.userId, email } });

    // Signed in already: the next authorization of a static client redirects at once.
    const again = await b.request(authorizePath(client, pkcePair().challenge, 'state-2'));
    expect(again.response.status).toBe(303);
    expect(new URL(again.response.headers.get('location')!).searchParams.get('code')).not.toBe(code);
  });

  it('a dynamically registered client gets a consent page, and the code only after Allow', async () => {
    const b = browser();
    const start = await b.request(authorizePath(dynamicClient, pkcePair().challenge, 'state-3'));
    const { email, password } = app.bootstrap.admin;
    const consent = await b.request('/api/authorize', { form: { request_id: hiddenField(start.body, 'request_id'), email, password } });
    expect(consent.response.status).toBe(200);
    expect(consent.body).toContain('registered itself');
    expect(consent.body).toContain('127.0.0.1:9998');

    const done = await b.request('/api/authorize/complete', {
      form: { request_id: hiddenField(consent.body, 'request_id'), decision: 'approve' },
    });
    expect(done.response.status).toBe(303);
    const location = new URL(done.response.headers.get('location')!);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('state-3');
    expect(location.searchParams.get('iss')).toBe(app.url);
  });
});
