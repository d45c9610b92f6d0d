/**
 * The owner signs in during a stranger's lockout, in a real browser (behaviour
 * PWFAIL-1, PWFAIL-3, PWFAIL-5): Debian's Chromium against the local server. The seeded admin
 * signs in once (the browser keeps the device cookie, HttpOnly and SameSite=Strict), signs out;
 * a stranger fills the address's ceiling over HTTP; the admin's browser still signs in with the
 * sign-in page, a fresh browser gets the 429 page, and the admin is mailed once.
 *
 * Run with `npm run test:browser`.
 */
import { mkdtempSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { failuresPerWindow } from '../../lambdas/core/account/password-attempts';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { settleBackgroundJobs } from '../../lambdas/wiring/background';
import { mailsTo } from '../support/account';
import { launchChromium, pageWatchingErrors } from '../support/browser';

const outbox = join(mkdtempSync(join(tmpdir(), 'ceiling-browser-')), 'outbox');
let app: LocalApp;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  // A window boundary between the stranger's failures and the owner's sign-in would reset the count.
  const intoWindow = (Date.now() / 1000) % 900;
  if (intoWindow > 870) await new Promise((resolve) => setTimeout(resolve, (900 - intoWindow + 1) * 1000));
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `pwcb-${randomUUID().slice(0, 8)}-`,
    // The seeded admin signs in with the password alone here; the mailed code has its own tests.
    env: { MFA_POLICY: 'off', HASH_METHOD: 'argon2id-fast', LOG_LEVEL: 'warn', MAIL_OUTBOX_DIR: outbox },
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const admin = () => app.bootstrap.admin;

async function signInWithTheForm(page: Page, password: string): Promise<void> {
  await page.goto(`${app.url}/api/auth/signin`);
  await page.fill('#email', admin().email);
  await page.fill('#password', password);
  await page.click('form[action="/api/auth/signin"] button[type=submit]');
  await page.waitForLoadState();
}

/** A stranger's form post, from no browser: no cookies. */
const strangerSignIn = (password: string) =>
  fetch(`${app.url}/api/auth/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url },
    body: new URLSearchParams({ email: admin().email, password }).toString(),
  });

describe('the owner’s browser during a stranger’s lockout (behaviour PWFAIL-3)', () => {
  it('signs in with the sign-in page while strangers get 429; a fresh browser gets the 429 page; the owner is mailed once', async () => {
    const owner = await browser.newContext();
    const { page, consoleErrors } = await pageWatchingErrors(owner);
    await signInWithTheForm(page, admin().password);
    expect(await page.textContent('body')).toContain('You are signed in as');
    const device = (await owner.cookies()).find((cookie) => cookie.name === 'device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    await page.click('form[action="/api/auth/signout"] button[type=submit]');
    await page.waitForLoadState();
    expect(await page.textContent('body')).toContain('You are signed out');
    expect((await owner.cookies()).some((cookie) => cookie.name === 'device')).toBe(true);

    for (let i = 0; i < failuresPerWindow; i++) expect((await strangerSignIn(`guess ${i}`)).status).toBe(401);
    expect((await strangerSignIn(admin().password)).status).toBe(429);

    await signInWithTheForm(page, admin().password);
    expect(await page.textContent('body')).toContain('You are signed in as');

    const { page: fresh } = await pageWatchingErrors(browser);
    await signInWithTheForm(fresh, admin().password);
    expect(await fresh.textContent('body')).toContain('Too many failed sign-ins for this account');

    await settleBackgroundJobs();
    expect(mailsTo(outbox, admin().email).map((mail) => mail.subject)).toEqual(['Wrong passwords were entered for your account']);
    expect(consoleErrors).toEqual([]);
    await owner.close();
  });
});
