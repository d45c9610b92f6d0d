/**
 * Issue 26, tried again from outside (review on branch i26-review). Each test here FAILS on the
 * reviewed code: it reproduces a hole found by driving the local server over HTTP.
 *
 * 1. RESET-9's "Remove all passkeys" races with a registration an intruder posts meanwhile: the
 *    intruder's passkey still signs in after the reset, so it holds a fresh session (recent enough to
 *    add passkeys, PASSKEY-1); registrations that land while the removal runs survive it, although
 *    the owner is shown "Passkeys removed".
 * 2. MFA-9: after the policy tightens, the refresh token of a password-only sign-in is refused,
 *    but its access token still creates a self-service API key (no expiry) whose exchange keeps
 *    minting tokens for the user under the new policy.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { SoftAuthenticator } from '../support/webauthn';

const outbox = join(mkdtempSync(join(tmpdir(), 'i26-review-')), 'outbox');
const redirectUri = 'http://localhost:9999/cb';
let app: LocalApp;
let adminToken: string;

beforeAll(async () => {
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix: `i26r-${randomUUID().slice(0, 8)}-`,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', MAIL_OUTBOX_DIR: outbox },
  });
  const { clientId, clientSecret } = app.bootstrap.adminClient;
  const response = await fetch(`${app.url}/api/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials&scope=admin',
  });
  adminToken = ((await response.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await app?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the admin API's JSON, read as the tests need it
async function admin(method: string, path: string, body?: unknown, token = adminToken): Promise<{ status: number; json: any }> {
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : {} };
}

/** A browser: a cookie jar, same-origin form posts, no redirects followed. */
class Browser {
  readonly cookies = new Map<string, string>();
  async request(method: string, path: string, fields?: Record<string, string>) {
    const headers: Record<string, string> = { accept: 'text/html', origin: app.url, 'sec-fetch-site': 'same-origin' };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (fields) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers,
      body: fields ? new URLSearchParams(fields).toString() : undefined,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, at), pair!.slice(at + 1)];
      if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, location: response.headers.get('location') ?? undefined, text: await response.text() };
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

async function newUser(): Promise<{ id: string; email: string; password: string }> {
  const email = `u-${randomUUID()}@example.test`;
  const password = `pw-${randomUUID()}`;
  const created = await admin('POST', '/api/admin/users', { name: 'User', email, password });
  expect(created.status).toBe(201);
  return { id: created.json.id, email, password };
}

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
      names = readdirSync(outbox).sort();
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

describe('RESET-9: "Remove all passkeys" leaves no passkey behind', () => {
  test('registrations an intruder posts while the removal runs survive it (fails today)', async () => {
    const user = await newUser();
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
    const registrations = ready.map(async (challenge, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      return register(again, authenticator(), challenge, `Owner laptop ${i}`);
    });
    const removed = await removal;
    await Promise.all(registrations);
    expect(removed.status).toBe(200);
    expect(removed.text).toContain('removed');

    // The owner was told every passkey is gone: none may be left.
    const left = await admin('GET', `/api/admin/users/${user.id}/passkeys`);
    expect(left.json.items.map((p: { name: string }) => p.name)).toEqual([]);
  });
});

describe('RESET-9: "Remove all passkeys" ends every session, one started with a passkey since the reset too', () => {
  test('a passkey sign-in in flight while the removal runs keeps its session, which adds a new passkey (fails today in most runs: up to 3 attempts, each hits in about half)', async () => {
    const outcomes: { alive: number; passkeys: number }[] = [];
    for (let round = 0; round < 3 && !outcomes.some((o) => o.alive > 0); round++) outcomes.push(await attempt());
    expect(outcomes.filter((o) => o.alive > 0 || o.passkeys > 0)).toEqual([]);
  }, 120_000);

  async function attempt(): Promise<{ alive: number; passkeys: number }> {
    const user = await newUser();
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

describe('MFA-9: a stricter policy reaches what a password-only sign-in can still create', () => {
  afterEach(async () => {
    await admin('PATCH', '/api/admin/settings', { mfa_policy: null });
  });

  test('its access token creates no API key once the policy asks for a second factor (fails today)', async () => {
    expect((await admin('PATCH', '/api/admin/settings', { mfa_policy: 'off' })).status).toBe(200);
    const user = await newUser();
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
    expect({ create: key.status, exchange: exchanged?.status }).toEqual({ create: 403, exchange: undefined });
  });
});
