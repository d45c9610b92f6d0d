import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { launchChromium } from '../support/browser';

let app: LocalApp;
let browser: Browser;
/** The single-page app's own origin: 127.0.0.1 on another port, while the server is localhost. */
let spa: Server;
let spaOrigin: string;

/**
 * The app's script. `/` starts the flow; `/callback` finishes it and writes what it saw into
 * `data-result`. PKCE with Web Crypto (a loopback origin is a secure context).
 */
const spaScript = (issuer: string) => `
const issuer = ${JSON.stringify(issuer)};
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
const form = (fields) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
async function metadata() {
  const response = await fetch(issuer + '/.well-known/oauth-authorization-server');
  return response.json();
}
async function start() {
  const meta = await metadata();
  const registration = await fetch(meta.registration_endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'Browser SPA', redirect_uris: [location.origin + '/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
  });
  const client = await registration.json();
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('flow', JSON.stringify({ clientId: client.client_id, verifier, registrationStatus: registration.status }));
  const authorize = new URL(meta.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code', client_id: client.client_id, redirect_uri: location.origin + '/callback',
    code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid profile', state: 'spa-state',
  }).toString();
  location.assign(authorize.toString());
}
async function refused(url, init) {
  try { await fetch(url, init); return false; } catch (error) { return error instanceof TypeError; }
}
async function finish() {
  const flow = JSON.parse(sessionStorage.getItem('flow'));
  const params = new URLSearchParams(location.search);
  const meta = await metadata();
  const token = await fetch(meta.token_endpoint, form({
    grant_type: 'authorization_code', code: params.get('code'), redirect_uri: location.origin + '/callback',
    client_id: flow.clientId, code_verifier: flow.verifier,
  }));
  const tokens = await token.json();
  const refresh = await fetch(meta.token_endpoint, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: flow.clientId }));
  const refreshed = await refresh.json();
  const userinfo = await fetch(meta.userinfo_endpoint, { headers: { Authorization: 'Bearer ' + refreshed.access_token } });
  const badUserinfo = await fetch(meta.userinfo_endpoint, { headers: { Authorization: 'Bearer not-a-token' } });
  const jwks = await fetch(meta.jwks_uri);
  const result = {
    registrationStatus: flow.registrationStatus,
    state: params.get('state'),
    tokenStatus: token.status, tokenType: tokens.token_type, hasRefreshToken: typeof tokens.refresh_token === 'string',
    refreshStatus: refresh.status, rotated: refreshed.refresh_token !== tokens.refresh_token,
    userinfoStatus: userinfo.status, userinfoSub: (await userinfo.json()).sub,
    badUserinfoStatus: badUserinfo.status, badUserinfoChallenge: badUserinfo.headers.get('WWW-Authenticate'),
    jwksKeys: (await jwks.json()).keys.length,
    introspectRefused: await refused(issuer + '/api/token/introspect', form({ token: refreshed.access_token, client_id: flow.clientId })),
    apiKeyExchangeRefused: await refused(issuer + '/api/token/api-key', { method: 'POST', headers: { Authorization: 'Bearer x' } }),
    adminRefused: await refused(issuer + '/api/admin/users', { headers: { Authorization: 'Bearer ' + refreshed.access_token } }),
    sessionRefused: await refused(issuer + '/api/auth/session', { credentials: 'include' }),
  };
  document.body.dataset.result = JSON.stringify(result);
}
(location.pathname === '/callback' ? finish() : start()).catch((error) => { document.body.dataset.result = JSON.stringify({ failed: String(error) }); });
`;

beforeAll(async () => {
  browser = await launchChromium();
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `cors-${randomUUID().slice(0, 8)}-`,
    env: { MFA_POLICY: 'off', HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn' },
  });
  spa = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(spaScript(app.url));
      return;
    }
    response
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end('<!doctype html><title>SPA</title><body><script src="/app.js"></script></body>');
  });
  await new Promise<void>((resolve) => spa.listen(0, '127.0.0.1', resolve));
  spaOrigin = `http://127.0.0.1:${(spa.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  spa?.close();
});

describe('a browser client on another origin (behaviour HTTP-6..HTTP-8)', () => {
  it('discovers, registers, redeems the code with PKCE, refreshes and calls userinfo through cross-origin fetch; introspection, the key exchange, the admin API and the session stay closed to it', async () => {
    expect(new URL(spaOrigin).origin).not.toBe(new URL(app.url).origin);
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${spaOrigin}/`);
    // The app navigates to the server's sign-in page (top-level, same-origin for its cookies).
    await page.waitForURL(`${app.url}/**`);
    await page.fill('#email', app.bootstrap.admin.email);
    await page.fill('#password', app.bootstrap.admin.password);
    await page.click('button[type=submit]');
    await page.click('button[value=approve]'); // a dynamically registered client is asked for consent (behaviour AUTHZ-7)
    await page.waitForURL(`${spaOrigin}/callback?**`);
    const result = JSON.parse(
      (await page.waitForSelector('body[data-result]', { state: 'attached' }).then((b) => b.getAttribute('data-result')))!,
    );
    expect(result).toEqual({
      registrationStatus: 201,
      state: 'spa-state',
      tokenStatus: 200,
      tokenType: 'Bearer',
      hasRefreshToken: true,
      refreshStatus: 200,
      rotated: true,
      userinfoStatus: 200,
      userinfoSub: expect.stringMatching(/\S/),
      badUserinfoStatus: 401,
      badUserinfoChallenge: expect.stringContaining('Bearer'),
      jwksKeys: 1,
      introspectRefused: true,
      apiKeyExchangeRefused: true,
      adminRefused: true,
      sessionRefused: true,
    });
    await context.close();
  });
});
