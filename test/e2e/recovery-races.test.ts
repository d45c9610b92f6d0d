/**
 * Tried from outside: the local server driven over HTTP, an intruder racing
 * the owner's "Remove all passkeys" after a reset (behaviour RESET-9, RESET-12, PASSKEY-13,
 * PASSKEY-14). The intruder added a passkey while it knew the password; that passkey still signs
 * in after the reset, so it holds a fresh session (recent enough to add passkeys, PASSKEY-1).
 * These are the review's reproductions, timing left to chance: registrations posted, and passkey
 * sign-ins started, while the removal runs. The same races in a fixed order, each step held
 * where it matters: test/handlers/recovery-races.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalApp } from '../../lambdas/local/app';
import { call, CookieBrowser } from '../support/local-http';
import { SoftAuthenticator } from '../support/webauthn';
import { startE2eApp } from '../support/e2e-app';
import { createUserOverHttp } from '../support/fixtures';

const outbox = join(mkdtempSync(join(tmpdir(), 'recovery-races-')), 'outbox');
let app: LocalApp;
let adminToken: string;

beforeAll(async () => {
  ({ app, adminToken } = await startE2eApp({ name: 'rr', env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', MAIL_OUTBOX_DIR: outbox } }));
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

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const authenticator = () => new SoftAuthenticator(app.url, new URL(app.url).hostname);

/** The challenge of "Add a passkey" on the passkeys page (a fresh ceremony per load). */
async function registrationChallenge(browser: Browser): Promise<string> {
  const page = await browser.request('GET', '/api/users/passkey');
  const match = /id="passkey-add" data-options="([^"]*)"/.exec(page.text);
  if (!match) throw new Error(`no passkeys page: ${page.status} ${page.location}`);
  return (JSON.parse(unescapeHtml(match[1]!)) as { challenge: string }).challenge;
}

const register = (browser: Browser, key: SoftAuthenticator, challenge: string, name: string) =>
  browser.request('POST', '/api/users/passkey/verify', { credential: JSON.stringify(key.register({ challenge })), name });

async function passkeySignIn(browser: Browser, key: SoftAuthenticator) {
  const options = await fetch(`${app.url}/api/auth/passkey/options`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
    body: '{}',
  });
  const { challenge } = (await options.json()) as { challenge: string };
  return browser.request('POST', '/api/auth/passkey/verify', { credential: JSON.stringify(key.assert({ challenge })) });
}

async function mailedResetToken(email: string): Promise<string> {
  await fetch(`${app.url}/forgot-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  for (let i = 0; i < 100; i++) {
    let names: string[] = [];
    try {
      // Only finished mails: the outbox writes `.<name>.partial` first and renames it.
      names = readdirSync(outbox)
        .filter((name) => name.endsWith('.json'))
        .sort();
    } catch {}
    for (const name of names.reverse()) {
      const mail = JSON.parse(readFileSync(join(outbox, name), 'utf8')) as { to: string; text: string };
      const token = mail.to === email ? /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1] : undefined;
      if (token) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no reset mail');
}

describe('"Remove all passkeys" leaves no passkey behind (behaviour RESET-9, PASSKEY-14)', () => {
  test('registrations an intruder posts while the removal runs store nothing (failed before: they survived it)', async () => {
    const user = await createUserOverHttp(app.url, adminToken);
    // The intruder knew the password once and added its own passkey (PASSKEY-1).
    const intruder = new Browser();
    expect((await intruder.request('POST', '/api/auth/signin', { email: user.email, password: user.password })).status).toBe(200);
    const intrudersKey = authenticator();
    expect((await register(intruder, intrudersKey, await registrationChallenge(intruder), 'evil')).location).toContain('done=added');

    // The owner resets the password (every session ends) and is offered "Remove all passkeys".
    const owner = new Browser();
    const token = await mailedResetToken(user.email);
    expect((await owner.request('GET', `/reset-password?token=${token}`)).status).toBe(303);
    const reset = await owner.request('POST', '/reset-password', {
      password: 'the owner new password',
      password_confirmation: 'the owner new password',
    });
    expect(reset.status).toBe(200);
    expect(owner.cookies.has('recovery')).toBe(true);

    // The intruder's passkey still signs in, so it has a recent session again, and readies registrations.
    const again = new Browser();
    expect((await passkeySignIn(again, intrudersKey)).status).toBe(200);
    const ready: string[] = [];
    for (let i = 0; i < 20; i++) ready.push(await registrationChallenge(again));

    // The owner presses "Remove all passkeys" while the intruder's registrations arrive.
    const removal = owner.request('POST', '/reset-password/passkeys/remove', { remove: 'all' });
    const keys = ready.map(() => authenticator());
    const registrations = ready.map(async (challenge, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      return register(again, keys[i]!, challenge, `Owner laptop ${i}`);
    });
    const removed = await removal;
    await Promise.all(registrations);
    expect(removed.status).toBe(200);
    expect(removed.text).toContain('removed');

    // The owner was told every passkey is gone: none may be left.
    const left = await admin('GET', `/api/admin/users/${user.id}/passkeys`);
    expect(left.json.items.map((p: { name: string }) => p.name)).toEqual([]);
    // And none signs in, whether or not its registration was answered as added.
    for (const key of [intrudersKey, ...keys]) expect((await passkeySignIn(new Browser(), key)).status).toBe(401);
    expect((await again.request('GET', '/api/auth/session')).status).toBe(401);
  });
});

describe('"Remove all passkeys" ends every session, one started with a passkey since the reset too (behaviour RESET-9, RESET-12, PASSKEY-13)', () => {
  test('no passkey sign-in in flight while the removal runs keeps a session or adds a passkey (failed before in most runs: up to 3 rounds, each hit in about half)', async () => {
    const outcomes: { alive: number; passkeys: number }[] = [];
    for (let round = 0; round < 3 && !outcomes.some((o) => o.alive > 0); round++) outcomes.push(await attempt());
    expect(outcomes.filter((o) => o.alive > 0 || o.passkeys > 0)).toEqual([]);
  }, 120_000);

  async function attempt(): Promise<{ alive: number; passkeys: number }> {
    const user = await createUserOverHttp(app.url, adminToken);
    const intruder = new Browser();
    expect((await intruder.request('POST', '/api/auth/signin', { email: user.email, password: user.password })).status).toBe(200);
    const intrudersKey = authenticator();
    await register(intruder, intrudersKey, await registrationChallenge(intruder), 'evil');

    const owner = new Browser();
    const token = await mailedResetToken(user.email);
    await owner.request('GET', `/reset-password?token=${token}`);
    expect(
      (
        await owner.request('POST', '/reset-password', {
          password: 'the owner new password',
          password_confirmation: 'the owner new password',
        })
      ).status,
    ).toBe(200);

    // The intruder signs in with its passkey over and over (no mail is sent for a sign-in), a new
    // sign-in every few milliseconds, while the owner presses "Remove all passkeys".
    const ceremonies = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const options = await fetch(`${app.url}/api/auth/passkey/options`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
          body: '{}',
        });
        return ((await options.json()) as { challenge: string }).challenge;
      }),
    );
    const browsers: Browser[] = [];
    const signIns: Promise<unknown>[] = [];
    let removal: Promise<{ status: number }> | undefined;
    let removed = false;
    for (const [i, challenge] of ceremonies.entries()) {
      if (removed) break;
      // The owner presses the button once the intruder's sign-ins are under way.
      if (i === 40) {
        removal = owner.request('POST', '/reset-password/passkeys/remove', { remove: 'all' }).finally(() => {
          removed = true;
        });
      }
      const browser = new Browser();
      browsers.push(browser);
      signIns.push(browser.request('POST', '/api/auth/passkey/verify', { credential: JSON.stringify(intrudersKey.assert({ challenge })) }));
      await new Promise((resolve) => setTimeout(resolve, 4));
    }
    expect((await removal!).status).toBe(200);

    // Every session was to end; a surviving one is recent enough to add a passkey.
    let alive = 0;
    for (const browser of browsers) {
      if ((await browser.request('GET', '/api/auth/session')).status !== 200) continue;
      alive++;
      await register(browser, authenticator(), await registrationChallenge(browser), 'after the removal');
    }
    const left = await admin('GET', `/api/admin/users/${user.id}/passkeys`);
    return { alive, passkeys: left.json.items.length };
  }
});
