import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Client } from '../../lambdas/core/model';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { authorizeQuery, pkcePair } from '../support/authorization';
import { createClient } from '../support/fixtures';
import { launchChromium, newestMail, pageWatchingErrors, redeemCode, startCallbackServer } from '../support/browser';

let callback: Server;
let callbackOrigin: string;
let app: LocalApp;
let browser: Browser;
let client: Client;

let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let authenticatorId: string;
let consoleErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  ({ server: callback, origin: callbackOrigin } = await startCallbackServer());
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `pkb-${randomUUID().slice(0, 8)}-`,
    // The password sign-ins here only open the passkeys page; the mailed code has its own tests.
    env: { MFA_POLICY: 'off', HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn' },
  });
  expect(new URL(app.url).hostname).toBe('localhost');
  client = await createClient({
    kind: 'app',
    environmentId: app.bootstrap.environments.defaultId,
    redirectUris: [`${callbackOrigin}/callback`],
    test: false,
  });

  context = await browser.newContext();
  ({ page, consoleErrors } = await pageWatchingErrors(context));
  cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  callback?.close();
});

const admin = () => app.bootstrap.admin;
const sessionCookie = async () => (await context.cookies(app.url)).find((c) => c.name === 'session');

async function signInWithPasswordToPasskeys(): Promise<void> {
  await page.goto(`${app.url}/api/auth/signin?return_to=%2Fapi%2Fusers%2Fpasskey`);
  await page.fill('#email', admin().email);
  await page.fill('#password', admin().password);
  await page.click('button[type=submit]');
  await page.waitForURL(`${app.url}/api/users/passkey`);
}

async function signOut(): Promise<void> {
  const answer = await page.request.post(`${app.url}/api/auth/signout`, { headers: { Origin: app.url, Accept: 'application/json' } });
  expect(answer.status()).toBeLessThan(400);
  await context.clearCookies();
  expect(await sessionCookie()).toBeUndefined();
}

async function startAuthorization(state: string): Promise<string> {
  const { verifier, challenge } = pkcePair();
  const query = authorizeQuery(client, { code_challenge: challenge, state, resource: 'https://mcp.example.test/' });
  await page.goto(`${app.url}/api/authorize?${new URLSearchParams(query).toString()}`);
  await page.waitForSelector('#passkey-sign-in', { state: 'visible' });
  return verifier;
}

const storedCredentials = async () =>
  (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as { isResidentCredential: boolean; rpId?: string }[];

describe('passkeys in Chromium with a virtual authenticator (behaviour PASSKEY-1..PASSKEY-6)', () => {
  it('adds a passkey from the passkeys page: one resident credential for localhost, listed on the page', async () => {
    await signInWithPasswordToPasskeys();
    expect(await page.textContent('body')).toContain('You have no passkeys yet.');
    await page.click('#passkey-add');
    await page.waitForURL(`${app.url}/api/users/passkey?done=added`);
    expect(await page.textContent('[role=status]')).toBe('The passkey was added.');
    expect(await page.locator('#passkeys li').count()).toBe(1);
    const credentials = await storedCredentials();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
  });

  it('adding the same authenticator again is refused by excludeCredentials: an error shows, still one passkey', async () => {
    await page.click('#passkey-add');
    await page.waitForSelector('#passkey-error', { state: 'visible' });
    expect(await page.textContent('#passkey-error')).toContain('already holds a passkey');
    expect(await storedCredentials()).toHaveLength(1);
    await page.reload();
    expect(await page.locator('#passkeys li').count()).toBe(1);
  });

  it('after signing out, "Sign in with a passkey" inside an authorization lands on the redirect URI, and the code redeems', async () => {
    await signOut();
    const verifier = await startAuthorization('passkey-state');
    await page.click('#passkey-sign-in');
    await page.waitForURL(`${callbackOrigin}/callback?**`);
    const params = new URL(page.url()).searchParams;
    expect(params.get('state')).toBe('passkey-state');
    expect(params.get('iss')).toBe(app.url);
    expect(await sessionCookie()).toBeDefined();
    const token = await redeemCode(app.url, {
      code: params.get('code')!,
      clientId: client.clientId,
      redirectUri: client.redirectUris[0]!,
      verifier,
      resource: 'https://mcp.example.test/',
    });
    expect(token.status).toBe(200);
    expect(await token.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
  });

  it('with user verification off, the passkey sign-in fails and no session starts', async () => {
    await signOut();
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    try {
      await startAuthorization('no-uv');
      await page.click('#passkey-sign-in');
      await page.waitForSelector('text=did not work', { timeout: 20_000 });
      expect(page.url()).toContain('/api/authorize');
      expect(await sessionCookie()).toBeUndefined();
    } finally {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    }
  });

  it('after removal the passkey no longer signs in: the same refusal, no session', async () => {
    await signInWithPasswordToPasskeys();
    await page.click('#passkeys li button[type=submit]');
    await page.waitForURL(`${app.url}/api/users/passkey?done=removed`);
    expect(await page.textContent('body')).toContain('You have no passkeys yet.');
    await signOut();
    await startAuthorization('removed');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('text=That passkey could not sign you in.');
    expect(await sessionCookie()).toBeUndefined();
  });

  it('after a password reset the completion lists the passkey by name, and "Remove all passkeys" ends it (behaviour RESET-9, PASSKEY-11)', async () => {
    await signInWithPasswordToPasskeys();
    await page.fill('#passkey-name', 'Browser test key');
    await page.click('#passkey-add');
    await page.waitForURL(`${app.url}/api/users/passkey?done=added`);
    expect(await page.textContent('#passkeys')).toContain('Browser test key');
    await signOut();

    await page.goto(`${app.url}/forgot-password`);
    await page.fill('#email', admin().email);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=If an account exists for that address');
    const token = await newestMail(app.outboxDir, admin().email, /\/reset-password\?token=([A-Za-z0-9_-]{43})/);
    await page.goto(`${app.url}/reset-password?token=${token}`);
    const newPassword = `browser-${randomUUID()}`;
    await page.fill('#password', newPassword);
    await page.fill('#password_confirmation', newPassword);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Passkeys that still sign in');
    expect(await page.textContent('#passkeys')).toContain('Browser test key');
    expect(await newestMail(app.outboxDir, admin().email, /(These passkeys can still sign in)/)).toBeDefined();
    await page.click('#remove-all-passkeys');
    await page.waitForSelector('text=These passkeys were removed');
    expect(await page.textContent('#passkeys')).toContain('Browser test key');
    expect((await context.cookies(app.url)).filter((c) => c.name === 'recovery' || c.name === 'reset')).toEqual([]);

    await startAuthorization('after-reset');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('text=That passkey could not sign you in.');
    expect(await sessionCookie()).toBeUndefined();
  });

  it('no CSP violations or script errors on any page (a refused sign-in is a 401 document, logged as such)', () => {
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
  });
});
