/**
 * The emailed second factor at sign-in (behaviour MFA-1..MFA-8, CONFIG-11
 * MFA_OTP_MAX_ATTEMPTS; RFC 8176 amr): both sign-in paths, the attempt cap under parallel
 * guesses, single use, the bindings of a code (challenge, authorization request, user,
 * address, password), the resend throttle, and bad input. Against DynamoDB Local, mail in the
 * outbox.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as sessionHandler } from '../../lambdas/handlers/session';
import { handler as resendHandler } from '../../lambdas/handlers/sign-in-code-resend';
import { handler as codeHandler } from '../../lambdas/handlers/sign-in-code';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { updateUser } from '../../lambdas/core/admin/users';
import type { Client } from '../../lambdas/core/model';
import { getAdmin } from '../../lambdas/wiring/admin';
import { getUsers } from '../../lambdas/wiring/repositories';
import { useOutbox } from '../support/api-keys';
import { createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { ephemeralItems, latestCode, mailsTo } from '../support/account';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField, locationOf } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { testAdminActor } from '../support/admin-calls';

const outbox = useOutbox();
const issuer = process.env.BASE_URL!;
let environmentId: string;
let client: Client;

beforeAll(async () => {
  environmentId = unique('env_');
  client = await createClient({ kind: 'app', environmentId });
});

const post = (handler: typeof codeHandler, path: string, fields: Record<string, string>, headers = browserHeaders()) =>
  handler(apiGatewayEvent({ method: 'POST', path, headers, body: form(fields) }), lambdaContext);
const signIn = (who: TestUser, extra: Record<string, string> = {}) =>
  post(signInHandler, '/api/auth/signin', { email: who.user.email!, password: who.password, ...extra });
const enterCode = (challengeId: string, code: string, extra: Record<string, string> = {}, headers = browserHeaders()) =>
  post(codeHandler, '/api/auth/otp', { challenge_id: challengeId, code, ...extra }, headers);
const resend = (challengeId: string, extra: Record<string, string> = {}) =>
  post(resendHandler, '/api/auth/otp/resend', { challenge_id: challengeId, ...extra });

/** An admin (MFA_POLICY defaults to admins) who has passed the password step. */
async function passwordStep(overrides = {}): Promise<{ who: TestUser; challengeId: string; page: APIGatewayProxyResult }> {
  const who = await createUserWithPassword({ admin: true, ...overrides, environments: [environmentId] });
  const page = await signIn(who);
  expect(page.statusCode).toBe(200);
  return { who, challengeId: hiddenField(page.body, 'challenge_id'), page };
}

const wrongCode = (right: string) => String((Number(right) + 1) % 1_000_000).padStart(6, '0');

describe('MFA_POLICY=admins (the default): the sign-in page (behaviour MFA-1, MFA-2, MFA-6)', () => {
  it('a correct password starts no session: the code page names the masked address, one mail holds the code, the table only its hash', async () => {
    const { who, challengeId, page } = await passwordStep();
    expect(headerOf(page, 'set-cookie')).toBeUndefined();
    expect(page.body).toContain('action="/api/auth/otp"');
    expect(page.body).toContain(`${who.user.email![0]}•••@example.test`);
    expect(page.body).not.toContain(who.user.email!);
    expect(page.body).not.toContain('<script');
    const mails = mailsTo(outbox, who.user.email!);
    expect(mails).toHaveLength(1);
    const code = latestCode(outbox, who.user.email!);
    expect(code).toMatch(/^[0-9]{6}$/);
    const stored = (await ephemeralItems('MFA#')).filter((item) => item.userId === who.user.id);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored[0])).not.toContain(code);
    expect(JSON.stringify(stored[0])).not.toContain(challengeId);
    expect(String(stored[0]!.codeHash)).toMatch(/^\$argon2id\$/);
  });

  it('the right code starts the session, with amr pwd otp mfa (RFC 8176) and the time of sign-in', async () => {
    const { who, challengeId } = await passwordStep();
    const result = await enterCode(challengeId, latestCode(outbox, who.user.email!));
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('You are signed in as');
    const cookie = cookieOf(result);
    const session = await sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers: { Cookie: cookie } }), lambdaContext);
    expect(jsonBody(session)).toMatchObject({ user: { id: who.user.id } });
    const [stored] = (await ephemeralItems('SESSION#')).filter((item) => item.userId === who.user.id);
    expect(stored).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], authTime: expect.any(Number) });
  });

  it('return_to is followed after the code, as after a password alone', async () => {
    const who = await createUserWithPassword({ admin: true });
    const page = await signIn(who, { return_to: '/api/authorize?x=1' });
    const result = await enterCode(hiddenField(page.body, 'challenge_id'), latestCode(outbox, who.user.email!));
    expect(result.statusCode).toBe(303);
    expect(headerOf(result, 'location')).toBe('/api/authorize?x=1');
  });

  it('a user the policy does not cover signs in with the password alone (amr pwd)', async () => {
    const who = await createUserWithPassword({ admin: false });
    const result = await signIn(who);
    expect(headerOf(result, 'set-cookie')).toMatch(/^__Host-session=/);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
    const [stored] = (await ephemeralItems('SESSION#')).filter((item) => item.userId === who.user.id);
    expect(stored).toMatchObject({ amr: ['pwd'] });
  });

  it('an admin without an address cannot sign in (there is nowhere to send the code): 403, no session', async () => {
    const who = await createUserWithPassword({ admin: true, email: `${unique('noaddr')}@example.test` });
    await getUsers().update(who.user, { email: undefined }, new Date().toISOString());
    // The address item stays behind (update only moves it); sign in through the user lookup of that address.
    const result = await signIn(who);
    expect(result.statusCode).toBe(403);
    expect(headerOf(result, 'set-cookie')).toBeUndefined();
  });
});

describe('the sign-in step of /api/authorize continues after the code exactly as after a password (behaviour MFA-5, MFA-6)', () => {
  it('code page, then 303 to the redirect URI with code, state and iss (RFC 9207)', async () => {
    const who = await createUserWithPassword({ admin: true, environments: [environmentId] });
    const started = await authorizeHandler(
      apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html' } }),
      lambdaContext,
    );
    const requestId = hiddenField(started.body, 'request_id');
    const page = await post(signInStepHandler, '/api/authorize', { request_id: requestId, email: who.user.email!, password: who.password });
    expect(page.statusCode).toBe(200);
    expect(headerOf(page, 'set-cookie')).toBeUndefined();
    expect(hiddenField(page.body, 'request_id')).toBe(requestId);
    // The page's final redirect goes to the client: its CSP form-action must allow that origin.
    expect(headerOf(page, 'content-security-policy')).toContain('https://app.example.test');
    const result = await enterCode(hiddenField(page.body, 'challenge_id'), latestCode(outbox, who.user.email!), { request_id: requestId });
    expect(result.statusCode).toBe(303);
    const location = locationOf(result);
    expect(`${location.origin}${location.pathname}`).toBe(client.redirectUris[0]);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('xyz-state');
    expect(location.searchParams.get('iss')).toBe(issuer);
    expect(headerOf(result, 'set-cookie')).toMatch(/^__Host-session=/);
  });

  it('a challenge is bound to its authorization request: another request id is refused and the code stays usable', async () => {
    const who = await createUserWithPassword({ admin: true, environments: [environmentId] });
    const open = async () =>
      hiddenField(
        (
          await authorizeHandler(
            apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html' } }),
            lambdaContext,
          )
        ).body,
        'request_id',
      );
    const [requestA, requestB] = [await open(), await open()];
    const page = await post(signInStepHandler, '/api/authorize', { request_id: requestA, email: who.user.email!, password: who.password });
    const challengeId = hiddenField(page.body, 'challenge_id');
    const code = latestCode(outbox, who.user.email!);
    const wrongRequest = await enterCode(challengeId, code, { request_id: requestB });
    expect(wrongRequest.statusCode).toBe(400);
    expect(headerOf(wrongRequest, 'set-cookie')).toBeUndefined();
    const withoutRequest = await enterCode(challengeId, code);
    expect(withoutRequest.statusCode).toBe(400);
    expect((await enterCode(challengeId, code, { request_id: requestA })).statusCode).toBe(303);
  });
});

describe('attempts (behaviour MFA-4: MFA_OTP_MAX_ATTEMPTS = 5)', () => {
  it('4 wrong codes, then the right one: signed in; each wrong code says how many tries are left', async () => {
    const { who, challengeId } = await passwordStep();
    const code = latestCode(outbox, who.user.email!);
    for (const left of [4, 3, 2, 1]) {
      const wrong = await enterCode(challengeId, wrongCode(code));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.body).toContain(`${left} ${left === 1 ? 'try' : 'tries'} left`);
      expect(headerOf(wrong, 'set-cookie')).toBeUndefined();
    }
    expect((await enterCode(challengeId, code)).statusCode).toBe(200);
  });

  it('5 wrong codes, then the right one: the challenge is used up (every attempt counted), sign in again', async () => {
    const { who, challengeId } = await passwordStep();
    const code = latestCode(outbox, who.user.email!);
    for (let i = 0; i < 5; i++) await enterCode(challengeId, wrongCode(code));
    const late = await enterCode(challengeId, code);
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain('Sign in again');
    expect(headerOf(late, 'set-cookie')).toBeUndefined();
    const challenges = (await ephemeralItems('MFA#')).filter((item) => item.userId === who.user.id);
    expect(challenges.map((item) => (item.attemptTokens as Set<string>).size)).toEqual([5]);
  });

  it('20 parallel wrong guesses are evaluated at most 5 times (atomic count), and the right code is refused afterwards', async () => {
    const { who, challengeId } = await passwordStep();
    const code = latestCode(outbox, who.user.email!);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const results = await Promise.all(guesses.map((guess) => enterCode(challengeId, guess)));
    expect(results.every((r) => r.statusCode === 400)).toBe(true);
    // Evaluated and wrong with tries left: at most 4; the fifth evaluation (the last try) ends the challenge.
    expect(results.filter((r) => r.body.includes('not right')).length).toBeLessThanOrEqual(4);
    expect(headerOf(await enterCode(challengeId, code), 'set-cookie')).toBeUndefined();
  });
});

describe('single use and bindings (behaviour MFA-5, MFA-6)', () => {
  it('a used code is refused the second time; two parallel posts of the right code start one session', async () => {
    const { who, challengeId } = await passwordStep();
    const code = latestCode(outbox, who.user.email!);
    const results = await Promise.all([enterCode(challengeId, code), enterCode(challengeId, code)]);
    expect(results.filter((r) => headerOf(r, 'set-cookie')).length).toBe(1);
    expect(headerOf(await enterCode(challengeId, code), 'set-cookie')).toBeUndefined();
  });

  it("challenge A's code does not work on challenge B (it counts as a wrong guess there)", async () => {
    const a = await passwordStep();
    const codeA = latestCode(outbox, a.who.user.email!);
    const b = await passwordStep();
    const codeB = latestCode(outbox, b.who.user.email!);
    if (codeA === codeB) return; // one in a million: nothing to tell apart
    const crossed = await enterCode(b.challengeId, codeA);
    expect(crossed.statusCode).toBe(400);
    expect(crossed.body).toContain('4 tries left');
  });

  it('the address changed after the code was sent: refused, no session', async () => {
    const { who, challengeId } = await passwordStep();
    const code = latestCode(outbox, who.user.email!);
    await updateUser(getAdmin(), testAdminActor, { userId: who.user.id, email: `${unique('moved')}@example.test` });
    const result = await enterCode(challengeId, code);
    expect(result.statusCode).toBe(400);
    expect(headerOf(result, 'set-cookie')).toBeUndefined();
  });

  it('the password changed after the code was sent: refused, no session', async () => {
    const { who, challengeId } = await passwordStep();
    const code = latestCode(outbox, who.user.email!);
    await updateUser(getAdmin(), testAdminActor, { userId: who.user.id, password: 'a brand new password' });
    const result = await enterCode(challengeId, code);
    expect(result.statusCode).toBe(400);
    expect(headerOf(result, 'set-cookie')).toBeUndefined();
  });
});

describe('resend (throttled per user by the service; behaviour MFA-7, MFA-8)', () => {
  it('a resend within a minute of the last code is 429 with Retry-After, and sends nothing', async () => {
    const { who, challengeId } = await passwordStep();
    const result = await resend(challengeId);
    expect(result.statusCode).toBe(429);
    expect(Number(headerOf(result, 'retry-after'))).toBeGreaterThan(0);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(1);
  });

  it('an unknown challenge gets the "sign in again" page, not a mail', async () => {
    const result = await resend('A'.repeat(43));
    expect(result.statusCode).toBe(400);
    expect(result.body).toContain('Sign in again');
  });
});

describe('bad input: its error code, never a 500, nothing counted', () => {
  it.each([
    ['no code', {}],
    ['letters', { code: 'abcdef' }],
    ['five digits', { code: '12345' }],
    ['seven digits', { code: '1234567' }],
    ['a huge code', { code: '1'.repeat(5000) }],
  ])('%s: 400 invalid_request, the attempt not counted', async (_name, fields) => {
    const { who, challengeId } = await passwordStep();
    const result = await post(
      codeHandler,
      '/api/auth/otp',
      { challenge_id: challengeId, ...fields },
      browserHeaders({ Accept: 'application/json' }),
    );
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    const [stored] = (await ephemeralItems('MFA#')).filter((item) => item.userId === who.user.id);
    expect(stored!.attemptTokens).toBeUndefined();
  });

  it('a malformed challenge id, a wrong content type, a cross-site post', async () => {
    const json = browserHeaders({ Accept: 'application/json' });
    expect(jsonBody(await post(codeHandler, '/api/auth/otp', { challenge_id: 'short', code: '123456' }, json)).error).toBe(
      'invalid_request',
    );
    const wrongType = await codeHandler(
      apiGatewayEvent({ method: 'POST', path: '/api/auth/otp', headers: { ...json, 'Content-Type': 'application/json' }, body: '{}' }),
      lambdaContext,
    );
    expect(wrongType.statusCode).toBe(415);
    const crossSite = await post(
      codeHandler,
      '/api/auth/otp',
      { challenge_id: 'A'.repeat(43), code: '123456' },
      browserHeaders({ 'Sec-Fetch-Site': 'cross-site' }),
    );
    expect(crossSite.statusCode).toBe(403);
    const resendBad = await post(resendHandler, '/api/auth/otp/resend', { challenge_id: '../x' }, json);
    expect(resendBad.statusCode).toBe(400);
  });
});
