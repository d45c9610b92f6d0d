/**
 * The account pages in a real browser: Debian's Chromium driven by playwright-core
 * against the local server, mail read from the outbox. An admin's sign-in with the mailed code
 * inside an authorization (password, code, redirect with code, state and iss; behaviour MFA-2,
 * MFA-6); the forgot and reset password pages (behaviour RESET-1..RESET-5) from the sign-in
 * page's link; no console errors, so no CSP violations.
 *
 * Run with `npm run test:browser`.
 */
import { mkdtempSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Client } from '../../lambdas/core/model';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { authorizeQuery, pkcePair } from '../support/authorization';
import { createClient, createUserWithPassword } from '../support/fixtures';
import { launchChromium, newestMail, pageWatchingErrors, startCallbackServer } from '../support/browser';

const outbox = join(mkdtempSync(join(tmpdir(), 'account-browser-')), 'outbox');
let callback: Server;
let callbackOrigin: string;
let app: LocalApp;
let browser: Browser;
let client: Client;

beforeAll(async () => {
  browser = await launchChromium();
  ({ server: callback, origin: callbackOrigin } = await startCallbackServer());
  // MFA_POLICY is left at its default (`admins`): the seeded admin must enter the mailed code.
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `acctb-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn', MAIL_OUTBOX_DIR: outbox },
  });
  client = await createClient({
    kind: 'app',
    environmentId: app.bootstrap.environments.defaultId,
    redirectUris: [`${callbackOrigin}/callback`],
    test: false,
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  callback?.close();
});

const newPage = () => pageWatchingErrors(browser);

const admin = () => app.bootstrap.admin;

describe('account pages in Chromium, without JavaScript, under the pages’ CSP', () => {
  it('authorization: password, then the code from the outbox, then the redirect URI with code, state and iss', async () => {
    const { page, consoleErrors } = await newPage();
    const query = authorizeQuery(client, { code_challenge: pkcePair().challenge, state: 'mfa-state' });
    await page.goto(`${app.url}/api/authorize?${new URLSearchParams(query).toString()}`);
    await page.fill('#email', admin().email);
    await page.fill('#password', admin().password);
    await page.click('button[type=submit]');
    await page.waitForSelector('#code');
    expect(await page.textContent('body')).toContain('•••@');
    await page.fill('#code', await newestMail(outbox, admin().email, /sign-in code is ([0-9]{6})/));
    await page.click('form[action="/api/auth/otp"] button[type=submit]');
    await page.waitForURL(`${callbackOrigin}/callback?**`);
    const params = new URL(page.url()).searchParams;
    expect(params.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBe('mfa-state');
    expect(params.get('iss')).toBe(app.url);
    expect(consoleErrors).toEqual([]);
  });

  it('forgot password from the sign-in page, the mailed link, a new password; the old one is refused, the new one reaches the code page', async () => {
    const { page, consoleErrors } = await newPage();
    await page.goto(`${app.url}/api/auth/signin`);
    await page.click('a[href="/forgot-password"]');
    await page.fill('#email', admin().email);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=If an account exists for that address');
    const token = await newestMail(outbox, admin().email, /\/reset-password\?token=([A-Za-z0-9_-]{43})/);
    await page.goto(`${app.url}/reset-password?token=${token}`);
    const newPassword = `browser-${randomUUID()}`;
    await page.fill('#password', newPassword);
    await page.fill('#password_confirmation', newPassword);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Your password was changed');
    await page.click('a[href="/api/auth/signin"]');
    await page.fill('#email', admin().email);
    await page.fill('#password', admin().password);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=The email or password is incorrect.');
    await page.fill('#email', admin().email);
    await page.fill('#password', newPassword);
    await page.click('button[type=submit]');
    await page.waitForSelector('#code');
    // A 4xx document (the refused old password) is logged by Chromium as a failed resource load, not a CSP violation.
    expect(consoleErrors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });

  it('the reset token leaves the address bar on first load; after a weak password, no later request carries it in its URL or Referer (behaviour RESET-8)', async () => {
    const { page, consoleErrors } = await newPage();
    const email = (await createUserWithPassword({ environments: [app.bootstrap.environments.defaultId], name: 'Reset User' })).user.email!;
    await page.goto(`${app.url}/forgot-password`);
    await page.fill('#email', email);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=If an account exists for that address');
    const token = await newestMail(outbox, email, /\/reset-password\?token=([A-Za-z0-9_-]{43})/);
    const seen: { url: string; referer: string | undefined }[] = [];
    const pending: Promise<void>[] = [];
    page.on('request', (request) => {
      pending.push(request.allHeaders().then((headers) => void seen.push({ url: request.url(), referer: headers.referer })));
    });
    await page.goto(`${app.url}/reset-password?token=${token}`);
    expect(page.url()).toBe(`${app.url}/reset-password`);
    const [cookie] = (await page.context().cookies()).filter((c) => c.name === 'reset');
    expect(cookie).toMatchObject({ value: token, path: '/reset-password', httpOnly: true, sameSite: 'Strict' });
    await page.fill('#password', 'short1');
    await page.fill('#password_confirmation', 'short1');
    // The page's minlength would stop the browser; the server's own check is what is tried here.
    await page.$eval('form', (form) => form.setAttribute('novalidate', ''));
    await page.click('button[type=submit]');
    await page.waitForSelector('text=at least 8');
    const newPassword = `browser-${randomUUID()}`;
    await page.fill('#password', newPassword);
    await page.fill('#password_confirmation', newPassword);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Your password was changed');
    await Promise.all(pending);
    expect(seen[0]!.url).toBe(`${app.url}/reset-password?token=${token}`);
    const later = seen.slice(1);
    expect(later.filter((r) => r.url.startsWith(`${app.url}/reset-password`)).length).toBeGreaterThanOrEqual(3); // the 303's GET, two posts
    for (const request of later) {
      expect(request.url).not.toContain(token);
      expect(request.referer ?? '').not.toContain(token);
    }
    expect(await page.content()).not.toContain(token);
    expect((await page.context().cookies()).filter((c) => c.name === 'reset')).toEqual([]);
    expect(consoleErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
