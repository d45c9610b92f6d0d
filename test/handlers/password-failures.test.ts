/**
 * Failed passwords slow an attacker and never lock out the owner (behaviour PWFAIL-1..PWFAIL-7;
 * OWASP ASVS 6.1.1, 6.3.1; OWASP "Slow Down Online Guessing Attacks with Device Cookies"):
 * strangers share a ceiling of 10 failures per address per 15-minute window, taken atomically
 * before the password is checked, and an unknown address gets the same answers;
 * a browser that signed in to the account before carries a device cookie and is counted on its own
 * (5 failures), so the strangers' ceiling does not stop it; the owner is mailed once per window when
 * the ceiling trips; a passkey sign-in never meets the ceiling. Against DynamoDB Local, mail in the outbox.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { handler as codeHandler } from '../../lambdas/handlers/sign-in-code';
import { handler as passkeyPageHandler } from '../../lambdas/handlers/passkeys-page';
import { handler as passkeyRegisterHandler } from '../../lambdas/handlers/passkey-register';
import { handler as passkeyOptionsHandler } from '../../lambdas/handlers/passkey-sign-in-options';
import { handler as passkeySignInHandler } from '../../lambdas/handlers/passkey-sign-in';
import { parseDeviceKeys } from '../../lambdas/adapters/device-cookie-keys';
import { deviceFailuresAllowed, deviceKeySet, sealDeviceCookie } from '../../lambdas/core/account/device-cookies';
import { settleBackgroundJobs } from '../../lambdas/wiring/background';
import { getSessions } from '../../lambdas/wiring/repositories';
import { useOutbox } from '../support/api-keys';
import { createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { ephemeralItems, latestCode, mailsTo } from '../support/account';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField } from '../support/authorization';
import { headersOf, jsonBody } from '../support/events';
import { SoftAuthenticator } from '../support/webauthn';
import { DynamoFaults, touches } from '../support/dynamo-faults';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { failuresPerWindow } from '../../lambdas/core/account/password-attempts';
import { apiGatewayEvent, headerOf, lambdaContext } from '../support/events';

const outbox = useOutbox();
const issuer = process.env.BASE_URL!;

/** A sign-in form post from a browser, with its cookies (`name=value; …`) if any. */
const signIn = (email: string, password: string, cookie?: string) =>
  signInHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/auth/signin',
      headers: browserHeaders(cookie ? { Cookie: cookie } : {}),
      body: form({ email, password }),
    }),
    lambdaContext,
  );

// A window boundary between the failures and the check would reset the count: start well inside one.
beforeAll(async () => {
  const intoWindow = (Date.now() / 1000) % 900;
  if (intoWindow > 840) await new Promise((resolve) => setTimeout(resolve, (900 - intoWindow + 1) * 1000));
}, 70_000);

describe('the per-account ceiling (behaviour PWFAIL-1, PWFAIL-2)', () => {
  it(`after ${failuresPerWindow} wrong passwords even the right one gets 429 with Retry-After; an unknown address gets the same sequence and page`, async () => {
    const who = await createUserWithPassword();
    const ghost = `${unique('ghost')}@example.test`;
    for (let i = 0; i < failuresPerWindow; i++) {
      expect((await signIn(who.user.email!, 'wrong password')).statusCode).toBe(401);
      expect((await signIn(ghost, 'wrong password')).statusCode).toBe(401);
    }
    const known = await signIn(who.user.email!, who.password);
    const unknown = await signIn(ghost, 'any password');
    expect(known.statusCode).toBe(429);
    expect(unknown.statusCode).toBe(429);
    expect(unknown.body).toBe(known.body);
    expect(Number(headerOf(known, 'retry-after'))).toBeLessThanOrEqual(900);
    expect(headerOf(known, 'set-cookie')).toBeUndefined();
  });

  it('20 parallel wrong passwords: at most 10 are checked, the rest are 429', async () => {
    const who = await createUserWithPassword();
    const results = await Promise.all(Array.from({ length: 20 }, () => signIn(who.user.email!, 'wrong password')));
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(failuresPerWindow);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(20 - failuresPerWindow);
  });

  it('another account is not affected', async () => {
    const victim = await createUserWithPassword();
    const bystander = await createUserWithPassword();
    for (let i = 0; i < failuresPerWindow; i++) await signIn(victim.user.email!, 'wrong password');
    expect(headerOf(await signIn(bystander.user.email!, bystander.password), 'set-cookie')).toMatch(/^__Host-session=/);
  });

  it('the sign-in step of /api/authorize shares the count', async () => {
    const who = await createUserWithPassword();
    for (let i = 0; i < failuresPerWindow; i++) await signIn(who.user.email!, 'wrong password');
    const client = await createClient({ kind: 'app' });
    const page = await authorizeHandler(
      apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html' } }),
      lambdaContext,
    );
    const result = await signInStepHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/authorize',
        headers: browserHeaders(),
        body: form({ request_id: hiddenField(page.body, 'request_id'), email: who.user.email!, password: who.password }),
      }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(429);
  });
});

/** `__Host-device=…` of a response, as the browser sends it back. */
function deviceCookieOf(result: APIGatewayProxyResult): string {
  const line = headersOf(result, 'set-cookie').find((cookie) => cookie.startsWith('__Host-device='));
  if (!line) throw new Error(`no device cookie in a ${result.statusCode} response`);
  return line.split(';')[0]!;
}
const setsDeviceCookie = (result: APIGatewayProxyResult) => headersOf(result, 'set-cookie').some((c) => c.startsWith('__Host-device='));
const cookieValue = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
const nowEpoch = () => Math.floor(Date.now() / 1000);
/** The deployment's device-cookie key, as the test set-up wrote it (DEVICE_COOKIE_KEY_FILE). */
const realKeys = () => parseDeviceKeys(readFileSync(process.env.DEVICE_COOKIE_KEY_FILE!, 'utf8'))!;

/** A user whose browser signed in once, and the device cookie it kept. */
async function ownerWithDevice(environmentIds: readonly string[] = []): Promise<{ who: TestUser; device: string }> {
  const who = await createUserWithPassword({ environments: environmentIds });
  const first = await signIn(who.user.email!, who.password);
  expect(first.statusCode).toBe(200);
  return { who, device: deviceCookieOf(first) };
}

/** Strangers fill the address's window: ten wrong passwords, after which even the right one waits. */
async function tripCeiling(who: TestUser): Promise<void> {
  for (let i = 0; i < failuresPerWindow; i++) expect((await signIn(who.user.email!, 'wrong password')).statusCode).toBe(401);
  expect((await signIn(who.user.email!, who.password)).statusCode).toBe(429);
}

describe('device cookies: a browser that signed in before is not stopped by strangers (behaviour PWFAIL-3)', () => {
  it("strangers at the ceiling do not stop the owner's browser: its right password signs in, its wrong one is a 401, not a 429", async () => {
    const { who, device } = await ownerWithDevice();
    await tripCeiling(who);
    expect((await signIn(who.user.email!, 'wrong password', device)).statusCode).toBe(401);
    const owner = await signIn(who.user.email!, who.password, device);
    expect(owner.statusCode).toBe(200);
    expect(owner.body).toContain('You are signed in as');
    expect(cookieOf(owner)).toMatch(/^__Host-session=/);
    // The strangers are still held.
    expect((await signIn(who.user.email!, who.password)).statusCode).toBe(429);
  });

  it('the cookie is __Host-, HttpOnly, Secure, SameSite=Strict and lives a year; only a completed sign-in sets it; the table keeps only a digest of its nonce, with its user', async () => {
    const who = await createUserWithPassword();
    const signedIn = await signIn(who.user.email!, who.password);
    const line = headersOf(signedIn, 'set-cookie').find((c) => c.startsWith('__Host-device='));
    expect(line).toMatch(
      /^__Host-device=v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\.[0-9]+\.[A-Za-z0-9_-]{43}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict; Secure$/,
    );
    expect(headerOf(signedIn, 'set-cookie')).toMatch(/^__Host-session=/);
    const device = deviceCookieOf(signedIn);
    const nonce = cookieValue(device).split('.')[3]!;
    const stored = (await ephemeralItems('DEVICE#')).filter((item) => item.userId === who.user.id);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(nonce);
    await tripCeiling(who);
    expect(setsDeviceCookie(await signIn(who.user.email!, who.password))).toBe(false);
    expect(setsDeviceCookie(await signIn(who.user.email!, 'wrong password', device))).toBe(false);
  });

  it('each sign-in replaces the cookie: the one it replaced loses its standing, so a copy dies at the owner’s next sign-in', async () => {
    const { who, device: first } = await ownerWithDevice();
    const again = await signIn(who.user.email!, who.password, first);
    const second = deviceCookieOf(again);
    expect(second).not.toBe(first);
    expect((await ephemeralItems('DEVICE#')).filter((item) => item.userId === who.user.id)).toHaveLength(1);
    await tripCeiling(who);
    expect((await signIn(who.user.email!, who.password, first)).statusCode).toBe(429);
    expect((await signIn(who.user.email!, who.password, second)).statusCode).toBe(200);
  });

  it("only a genuine cookie of this account passes: forged, expired, another user's, altered, sealed by another key or naming no record get the strangers' 429 (behaviour PWFAIL-3, PWFAIL-6)", async () => {
    const { who, device } = await ownerWithDevice();
    const { device: othersDevice } = await ownerWithDevice();
    await tripCeiling(who);
    const [version, kid, user, nonce, expiry, mac] = cookieValue(device).split('.') as [string, string, string, string, string, string];
    const flip = (text: string) => `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
    const random43 = () => randomBytes(32).toString('base64url');
    const attackerKeys = deviceKeySet(random43())!;
    const sealedByAttacker = sealDeviceCookie(attackerKeys, { userId: who.user.id, nonce, expiresAtEpoch: Number(expiry) }).split('.');
    const candidates: Record<string, string> = {
      forged: [version, kid, user, random43(), expiry, random43()].join('.'),
      'sealed by another key': sealedByAttacker.join('.'),
      'sealed by another key, naming the real key id': [version, kid, ...sealedByAttacker.slice(2)].join('.'),
      'expired (sealed by the real key, naming the live record)': sealDeviceCookie(realKeys(), {
        userId: who.user.id,
        nonce,
        expiresAtEpoch: nowEpoch() - 1,
      }),
      "another user's": cookieValue(othersDevice),
      "altered to name this user, on another user's cookie": [version, kid, user, ...cookieValue(othersDevice).split('.').slice(3)].join(
        '.',
      ),
      'altered signature': [version, kid, user, nonce, expiry, flip(mac)].join('.'),
      'altered expiry': [version, kid, user, nonce, String(Number(expiry) + 1), mac].join('.'),
      'genuine seal, naming no record': sealDeviceCookie(realKeys(), {
        userId: who.user.id,
        nonce: random43(),
        expiresAtEpoch: Number(expiry),
      }),
    };
    for (const [name, value] of Object.entries(candidates)) {
      const result = await signIn(who.user.email!, who.password, `__Host-device=${value}`);
      expect([name, result.statusCode]).toEqual([name, 429]);
    }
    expect((await signIn(who.user.email!, who.password, device)).statusCode).toBe(200);
  });

  it('the sign-in step of /api/authorize honours the cookie and renews it', async () => {
    const client = await createClient({ kind: 'app' });
    const { who, device } = await ownerWithDevice([client.environmentId]);
    await tripCeiling(who);
    const page = await authorizeHandler(
      apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html', Cookie: device } }),
      lambdaContext,
    );
    const result = await signInStepHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/authorize',
        headers: browserHeaders({ Cookie: device }),
        body: form({ request_id: hiddenField(page.body, 'request_id'), email: who.user.email!, password: who.password }),
      }),
      lambdaContext,
    );
    expect(result.statusCode).not.toBe(429);
    expect(cookieOf(result)).toMatch(/^__Host-session=/);
    expect(deviceCookieOf(result)).not.toBe(device);
  });

  it('with a mailed code (an admin under MFA_POLICY=admins) the code completes the sign-in and sets the cookie; strangers at the ceiling then do not stop that browser', async () => {
    const who = await createUserWithPassword({ admin: true });
    const codePage = await signIn(who.user.email!, who.password);
    expect(codePage.statusCode).toBe(200);
    expect(setsDeviceCookie(codePage)).toBe(false);
    const done = await codeHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/auth/otp',
        headers: browserHeaders(),
        body: form({ challenge_id: hiddenField(codePage.body, 'challenge_id'), code: latestCode(outbox, who.user.email!) }),
      }),
      lambdaContext,
    );
    expect(done.statusCode).toBe(200);
    const device = deviceCookieOf(done);
    await tripCeiling(who);
    const again = await signIn(who.user.email!, who.password, device);
    expect(again.statusCode).toBe(200);
    expect(hiddenField(again.body, 'challenge_id')).toBeTruthy();
  });
});

describe('the per-device ceiling (behaviour PWFAIL-4)', () => {
  it(`${deviceFailuresAllowed} wrong passwords from the device are answered 401 while strangers are held; then that cookie waits with the strangers`, async () => {
    const { who, device } = await ownerWithDevice();
    await tripCeiling(who);
    for (let i = 0; i < deviceFailuresAllowed; i++) expect((await signIn(who.user.email!, 'wrong password', device)).statusCode).toBe(401);
    expect((await signIn(who.user.email!, who.password, device)).statusCode).toBe(429);
  });

  it("a device's failures are its own: they leave the strangers' window of the address untouched", async () => {
    const { who, device } = await ownerWithDevice();
    for (let i = 0; i < deviceFailuresAllowed - 1; i++)
      expect((await signIn(who.user.email!, 'wrong password', device)).statusCode).toBe(401);
    await tripCeiling(who);
  });

  it(`20 parallel wrong passwords from one device while strangers are held: exactly ${deviceFailuresAllowed} are checked, the rest are 429 (behaviour PWFAIL-2)`, async () => {
    const { who, device } = await ownerWithDevice();
    await tripCeiling(who);
    const results = await Promise.all(Array.from({ length: 20 }, () => signIn(who.user.email!, 'wrong password', device)));
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(deviceFailuresAllowed);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(20 - deviceFailuresAllowed);
  });
});

describe('the owner is told when the ceiling trips (behaviour PWFAIL-5)', () => {
  const noticeSubject = 'Wrong passwords were entered for your account';

  it('one mail per window however many attempts fail or are refused, parallel ones included: what happened and what to do, nothing an attacker could use', async () => {
    const who = await createUserWithPassword();
    const guess = 'correct horse battery staple';
    const parallel = await Promise.all(Array.from({ length: 20 }, () => signIn(who.user.email!, guess)));
    expect(parallel.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(failuresPerWindow);
    for (let i = 0; i < 5; i++) expect((await signIn(who.user.email!, who.password)).statusCode).toBe(429);
    await settleBackgroundJobs();
    const mails = mailsTo(outbox, who.user.email!);
    expect(mails.map((m) => m.subject)).toEqual([noticeSubject]);
    const text = mails[0]!.text;
    expect(text).toContain('None of those attempts signed in');
    expect(text).toContain('Browsers where you have signed in before, and your passkeys, still work');
    expect(text).toContain(`${issuer}/forgot-password`);
    expect(text).toMatch(/paused until .* UTC/);
    for (const secret of [guess, who.password, '203.0.113.7', who.user.id]) expect(text).not.toContain(secret);
  });

  it('an unknown address mails nobody, with the same answers', async () => {
    const ghost = `${unique('ghost')}@example.test`;
    for (let i = 0; i < failuresPerWindow; i++) expect((await signIn(ghost, 'wrong password')).statusCode).toBe(401);
    expect((await signIn(ghost, 'wrong password')).statusCode).toBe(429);
    await settleBackgroundJobs();
    expect(mailsTo(outbox, ghost)).toEqual([]);
  });
});

describe('passkeys and the ceiling (behaviour PWFAIL-7)', () => {
  const post = (handler: typeof signInHandler, path: string, fields: Record<string, string>, cookie?: string) =>
    handler(
      apiGatewayEvent({ method: 'POST', path, headers: browserHeaders(cookie ? { Cookie: cookie } : {}), body: form(fields) }),
      lambdaContext,
    );

  /** Registers a software passkey for `who` through the passkeys page, as a freshly signed-in browser would. */
  async function addPasskey(who: TestUser): Promise<SoftAuthenticator> {
    const id = randomBytes(32).toString('base64url');
    const authTime = nowEpoch();
    await getSessions().createSession(
      id,
      { userId: who.user.id, authTime, amr: ['pwd'], expiresAtEpoch: authTime + 600 },
      new Date().toISOString(),
    );
    const session = `__Host-session=${id}`;
    const page = await passkeyPageHandler(
      apiGatewayEvent({ path: '/api/users/passkey', headers: browserHeaders({ Cookie: session }) }),
      lambdaContext,
    );
    const options = /id="passkey-add" data-options="([^"]*)"/
      .exec(page.body)![1]!
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    const authenticator = new SoftAuthenticator(issuer, new URL(issuer).hostname);
    const credential = authenticator.register({ challenge: (JSON.parse(options) as { challenge: string }).challenge });
    const added = await post(passkeyRegisterHandler, '/api/users/passkey/verify', { credential: JSON.stringify(credential) }, session);
    expect(added.statusCode).toBe(303);
    return authenticator;
  }

  /** A passkey sign-in from a browser with no cookies; the ceremony's challenge is asked for first. */
  async function passkeySignIn(authenticator: SoftAuthenticator): Promise<APIGatewayProxyResult> {
    const options = await passkeyOptionsHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/auth/passkey/options',
        headers: { Accept: 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      }),
      lambdaContext,
    );
    const challenge = String(jsonBody(options).challenge);
    return post(passkeySignInHandler, '/api/auth/passkey/verify', { credential: JSON.stringify(authenticator.assert({ challenge })) });
  }

  // Held from the start (the passkey path never consulted the ceiling); kept as a guard.
  it('a passkey signs in while strangers hold the password ceiling', async () => {
    const who = await createUserWithPassword();
    const authenticator = await addPasskey(who);
    await tripCeiling(who);
    const signedIn = await passkeySignIn(authenticator);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.body).toContain('You are signed in as');
    expect(cookieOf(signedIn)).toMatch(/^__Host-session=/);
  });

  it('a passkey sign-in leaves the browser a device cookie, so its password is not held by strangers either (behaviour PWFAIL-3)', async () => {
    const who = await createUserWithPassword();
    const authenticator = await addPasskey(who);
    const signedIn = await passkeySignIn(authenticator);
    await tripCeiling(who);
    expect((await signIn(who.user.email!, who.password, deviceCookieOf(signedIn))).statusCode).toBe(200);
  });
});

describe('database trouble (behaviour PWFAIL-2..PWFAIL-5, ERR-5)', () => {
  let faults: DynamoFaults;
  beforeEach(() => (faults = DynamoFaults.install()));
  afterEach(() => faults.uninstall());

  it('a device record that cannot be written costs the browser its cookie, never the sign-in', async () => {
    const who = await createUserWithPassword();
    faults.fail({ operation: 'PutItem', phase: 'before', where: (a) => touches(a, 'DEVICE#') });
    const signedIn = await signIn(who.user.email!, who.password);
    expect(signedIn.statusCode).toBe(200);
    expect(cookieOf(signedIn)).toMatch(/^__Host-session=/);
    expect(setsDeviceCookie(signedIn)).toBe(false);
  });

  it("the DynamoDB client's resend of a device's slot after a lost reply counts once: still five failures before the cookie waits", async () => {
    const { who, device } = await ownerWithDevice();
    await tripCeiling(who);
    faults.fail({ operation: 'UpdateItem', phase: 'after', times: 1, where: (a) => touches(a, 'DEVICE#') });
    for (let i = 0; i < deviceFailuresAllowed; i++) expect((await signIn(who.user.email!, 'wrong password', device)).statusCode).toBe(401);
    expect((await signIn(who.user.email!, who.password, device)).statusCode).toBe(429);
  });

  it("the DynamoDB client's resend of the notice claim after a lost reply is still the claim: one mail", async () => {
    const who = await createUserWithPassword();
    faults.fail({
      operation: 'UpdateItem',
      phase: 'after',
      times: 1,
      where: (a) => touches(a, 'PWFAIL#') && JSON.stringify(a.input).includes('notifiedBy'),
    });
    await tripCeiling(who);
    await settleBackgroundJobs();
    expect(mailsTo(outbox, who.user.email!).map((m) => m.subject)).toEqual(['Wrong passwords were entered for your account']);
  });
});
