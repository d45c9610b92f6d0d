import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import type { Client } from '../../lambdas/core/model';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { authorizeQuery, pkcePair } from '../support/authorization';
import { createClient } from '../support/fixtures';
import { launchChromium, pageWatchingErrors, redeemCode, startCallbackServer } from '../support/browser';

/** The clients' loopback redirect target, as a native or MCP client would listen (RFC 8252 7.3). */
let callback: Server;
let callbackOrigin: string;

let app: LocalApp;
let browser: Browser;
let staticClient: Client;
let dynamicClient: Client;

beforeAll(async () => {
  browser = await launchChromium();
  ({ server: callback, origin: callbackOrigin } = await startCallbackServer());
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `authz-${randomUUID().slice(0, 8)}-`,
    // These sign in the seeded admin to test authorization itself; the mailed code is tested in
    // test/handlers/sign-in-code.test.ts and test/browser/account.test.ts.
    env: { MFA_POLICY: 'off', HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn' },
  });
  const environments = app.bootstrap.environments;
  staticClient = await createClient({
    kind: 'app',
    environmentId: environments.defaultId,
    redirectUris: [`${callbackOrigin}/callback`],
    test: false,
  });
  dynamicClient = await createClient({
    kind: 'app',
    name: 'Self-registered MCP client',
    environmentId: environments.dcrId,
    redirectUris: [`${callbackOrigin}/cb`],
    registrationType: 'dynamic',
    test: false,
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  callback?.close();
});

const newPage = () => pageWatchingErrors(browser);

function authorizeUrl(client: Client, challenge: string, state: string): string {
  const query = authorizeQuery(client, { code_challenge: challenge, state, resource: 'https://mcp.example.test/' });
  return `${app.url}/api/authorize?${new URLSearchParams(query).toString()}`;
}

async function signIn(page: Page): Promise<void> {
  await page.fill('#email', app.bootstrap.admin.email);
  await page.fill('#password', app.bootstrap.admin.password);
  await page.click('button[type=submit]');
}

const callbackParams = (page: Page) => new URL(page.url()).searchParams;

describe('authorization in Chromium: the pages work without JavaScript, as a browser submits them', () => {
  it('sign-in form, then the browser lands on the redirect URI with code, state and iss; the code redeems with its verifier', async () => {
    const { page, consoleErrors } = await newPage();
    const { verifier, challenge } = pkcePair();
    await page.goto(authorizeUrl(staticClient, challenge, 'state-1'));
    expect(await page.title()).toMatch(/sign in/i);
    await signIn(page);
    await page.waitForURL(`${callbackOrigin}/callback?**`);
    const params = callbackParams(page);
    expect(params.get('state')).toBe('state-1');
    expect(params.get('iss')).toBe(app.url);
    const token = await redeemCode(app.url, {
      code: params.get('code')!,
      clientId: staticClient.clientId,
      redirectUri: staticClient.redirectUris[0]!,
      verifier,
      resource: 'https://mcp.example.test/',
    });
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });
    expect(consoleErrors).toEqual([]);
  });

  it('the session cookie carries the sign-in: a second authorization redirects without a form', async () => {
    const { page } = await newPage();
    await page.goto(authorizeUrl(staticClient, pkcePair().challenge, 'first'));
    await signIn(page);
    await page.waitForURL(`${callbackOrigin}/callback?**`);
    const firstCode = callbackParams(page).get('code');
    await page.goto(authorizeUrl(staticClient, pkcePair().challenge, 'second'));
    await page.waitForURL(`${callbackOrigin}/callback?**`);
    expect(callbackParams(page).get('state')).toBe('second');
    expect(callbackParams(page).get('code')).not.toBe(firstCode);
  });

  it('a dynamically registered client: consent page, Allow gives a code', async () => {
    const { page, consoleErrors } = await newPage();
    await page.goto(authorizeUrl(dynamicClient, pkcePair().challenge, 'state-allow'));
    await signIn(page);
    await page.waitForSelector('button[value=approve]');
    expect(await page.textContent('body')).toContain(new URL(callbackOrigin).host);
    await page.click('button[value=approve]');
    await page.waitForURL(`${callbackOrigin}/cb?**`);
    expect(callbackParams(page).get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(callbackParams(page).get('state')).toBe('state-allow');
    expect(consoleErrors).toEqual([]);
  });

  it('a dynamically registered client: Deny returns access_denied and no code (RFC 6749 4.1.2.1)', async () => {
    const { page } = await newPage();
    await page.goto(authorizeUrl(dynamicClient, pkcePair().challenge, 'state-deny'));
    await signIn(page);
    await page.click('button[value=deny]');
    await page.waitForURL(`${callbackOrigin}/cb?**`);
    expect(callbackParams(page).get('error')).toBe('access_denied');
    expect(callbackParams(page).get('code')).toBeNull();
    expect(callbackParams(page).get('state')).toBe('state-deny');
  });
});
