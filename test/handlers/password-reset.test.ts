/**
 * Password reset (behaviour RESET-1..RESET-7, ADMIN-17: single use, invalidated
 * on any password change, the same response whether or not the address exists): the forgot-password answer
 * for known and unknown addresses (page, status, headers, and time, as a median ratio), the
 * per-address throttle, a GET that consumes nothing, one POST, older links killed by a newer
 * one and by an admin password change, what a reset ends (sessions, refresh families) and
 * mails, the admin "send a reset link", and bad input.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { handler as forgotHandler } from '../../lambdas/handlers/forgot-password';
import { handler as forgotPageHandler } from '../../lambdas/handlers/forgot-password-page';
import { handler as resetPageHandler } from '../../lambdas/handlers/reset-password-page';
import { handler as resetHandler } from '../../lambdas/handlers/reset-password';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { handler as sendLinkHandler } from '../../lambdas/handlers/admin/users-password-reset';
import { handler as updateUserHandler } from '../../lambdas/handlers/admin/users-update';
import { settleBackgroundJobs } from '../../lambdas/wiring/background';
import { getUsers } from '../../lambdas/wiring/repositories';
import { callAdmin, setPasswordAsAdmin } from '../support/admin-calls';
import { useOutbox } from '../support/api-keys';
import { DynamoFaults } from '../support/dynamo-faults';
import { adminClientToken, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { ephemeralItems, latestResetToken, mailsTo, sessionsOf } from '../support/account';
import { browserHeaders, cookieOf, form } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';

const outbox = useOutbox();
let adminToken: string;
beforeAll(async () => {
  adminToken = (await adminClientToken()).token;
});

const forgot = (email: string, headers = browserHeaders()) =>
  forgotHandler(apiGatewayEvent({ method: 'POST', path: '/forgot-password', headers, body: form({ email }) }), lambdaContext);
const resetPage = (token: string) =>
  resetPageHandler(apiGatewayEvent({ path: '/reset-password', query: { token }, headers: { Accept: 'text/html' } }), lambdaContext);
const reset = (token: string, password: string, headers = browserHeaders()) =>
  resetHandler(
    apiGatewayEvent({ method: 'POST', path: '/reset-password', headers, body: form({ token, password, password_confirmation: password }) }),
    lambdaContext,
  );
/** The bare page after the link's 303, with the cookie the 303 set (or none). */
const formPage = (cookie?: string, accept = 'text/html') =>
  resetPageHandler(
    apiGatewayEvent({ path: '/reset-password', headers: { Accept: accept, ...(cookie ? { Cookie: cookie } : {}) } }),
    lambdaContext,
  );
/** The form's own post: the token only in the cookie, as a browser sends it (behaviour RESET-8). */
const resetWithCookie = (cookie: string, password: string, confirmation = password, headers = browserHeaders()) =>
  resetHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/reset-password',
      headers: { ...headers, Cookie: cookie, Referer: `${process.env.BASE_URL}/reset-password` },
      body: form({ password, password_confirmation: confirmation }),
    }),
    lambdaContext,
  );
const linkCookie = (result: APIGatewayProxyResult) => cookieOf(result);
const signIn = (email: string, password: string) =>
  signInHandler(
    apiGatewayEvent({ method: 'POST', path: '/api/auth/signin', headers: browserHeaders(), body: form({ email, password }) }),
    lambdaContext,
  );

async function requestLink(who: TestUser): Promise<string> {
  expect((await forgot(who.user.email!)).statusCode).toBe(200);
  await settleBackgroundJobs();
  return latestResetToken(outbox, who.user.email!);
}

const headersWithoutDate = (result: APIGatewayProxyResult) =>
  Object.fromEntries(Object.entries(result.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'date'));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('GET /forgot-password (behaviour RESET-1)', () => {
  it('is a form posting to /forgot-password, no script, and the sign-in page links to it', async () => {
    const page = await forgotPageHandler(apiGatewayEvent({ path: '/forgot-password' }), lambdaContext);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post" action="/forgot-password">');
    expect(page.body).not.toContain('<script');
    const { handler: signInPage } = await import('../../lambdas/handlers/sign-in-page');
    expect((await signInPage(apiGatewayEvent({ path: '/api/auth/signin' }), lambdaContext)).body).toContain('href="/forgot-password"');
  });
});

describe('POST /forgot-password answers the same for every address (behaviour RESET-1, RESET-2)', () => {
  it('known and unknown address: same status, headers (but Date) and body; mail only for the known one, sent after the answer', async () => {
    const who = await createUserWithPassword();
    const unknown = `${unique('nobody')}@example.test`;
    const known = await forgot(who.user.email!);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0); // not yet: it is off the request path
    const absent = await forgot(unknown);
    expect(absent.statusCode).toBe(known.statusCode);
    expect(absent.body).toBe(known.body);
    expect(headersWithoutDate(absent)).toEqual(headersWithoutDate(known));
    expect(known.body).toContain('If an account exists for that address');
    await settleBackgroundJobs();
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(1);
    expect(mailsTo(outbox, unknown)).toHaveLength(0);
    const link = mailsTo(outbox, who.user.email!)[0]!.text;
    expect(link).toMatch(new RegExp(`${process.env.BASE_URL}/reset-password\\?token=[A-Za-z0-9_-]{43}`));
    // Stored only as a digest.
    const token = latestResetToken(outbox, who.user.email!);
    expect(JSON.stringify(await ephemeralItems('PWRESET'))).not.toContain(token);
  });

  it('no timing a client can use: median response time known/unknown within 0.67..1.5 over 40 requests each (measured, not a timed assertion of speed)', async () => {
    const knownUsers = await Promise.all(Array.from({ length: 40 }, () => createUserWithPassword()));
    const timings: { known: number[]; unknown: number[] } = { known: [], unknown: [] };
    for (let i = 0; i < 40; i++) {
      // Interleaved, so drift of the machine affects both alike.
      for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
        const email = kind === 'known' ? knownUsers[i]!.user.email! : `${unique('ghost')}@example.test`;
        const began = performance.now();
        const result = await forgot(email);
        timings[kind].push(performance.now() - began);
        expect(result.statusCode).toBe(200);
      }
      await settleBackgroundJobs();
    }
    const ratio = median(timings.known) / median(timings.unknown);
    process.stdout.write(
      `forgot-password median known ${median(timings.known).toFixed(2)} ms, unknown ${median(timings.unknown).toFixed(2)} ms, ratio ${ratio.toFixed(3)}\n`,
    );
    expect(ratio).toBeGreaterThan(0.67);
    expect(ratio).toBeLessThan(1.5);
  });

  it('throttled per address by the service: a second request within a minute is 429 for known and unknown alike', async () => {
    const who = await createUserWithPassword();
    const unknown = `${unique('nobody')}@example.test`;
    await forgot(who.user.email!);
    await forgot(unknown);
    const [known, absent] = [await forgot(who.user.email!), await forgot(unknown)];
    expect(known.statusCode).toBe(429);
    expect(absent.statusCode).toBe(429);
    expect(absent.body).toBe(known.body);
    await settleBackgroundJobs();
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(1);
  });

  it('bad input: 400 invalid_request, never a 500, nothing counted or sent; a cross-site post is 403', async () => {
    const json = browserHeaders({ Accept: 'application/json' });
    for (const email of ['', 'not-an-address', `${'a'.repeat(300)}@example.test`]) {
      const result = await forgot(email, json);
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result).error).toBe('invalid_request');
    }
    const repeated = await forgotHandler(
      apiGatewayEvent({ method: 'POST', path: '/forgot-password', headers: json, body: 'email=a@b.test&email=c@d.test' }),
      lambdaContext,
    );
    expect(repeated.statusCode).toBe(400);
    const wrongType = await forgotHandler(
      apiGatewayEvent({ method: 'POST', path: '/forgot-password', headers: { ...json, 'Content-Type': 'text/plain' }, body: 'x' }),
      lambdaContext,
    );
    expect(wrongType.statusCode).toBe(415);
    const crossSite = await forgot('someone@example.test', browserHeaders({ 'Sec-Fetch-Site': 'cross-site' }));
    expect(crossSite.statusCode).toBe(403);
    expect(await ephemeralItems('SENDRATE#RESET#')).not.toContainEqual(
      expect.objectContaining({ pk: expect.stringContaining('not-an-address') }),
    );
  });
});

describe('the link (behaviour RESET-4..RESET-7: single use; a newer link or any password change kills it)', () => {
  it('GET twice consumes nothing; the first POST sets the password; a second POST is refused', async () => {
    const who = await createUserWithPassword();
    const token = await requestLink(who);
    for (let i = 0; i < 2; i++) {
      const opened = await resetPage(token);
      expect(opened.statusCode).toBe(303);
      const page = await formPage(linkCookie(opened));
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('action="/reset-password"');
      expect(page.body).not.toContain('<script');
    }
    expect((await reset(token, 'the new password 1')).statusCode).toBe(200);
    const again = await reset(token, 'the new password 2');
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('no longer works');
    expect((await resetPage(token)).statusCode).toBe(400);
  });

  it('after a reset: old password refused, new one works, sessions deleted, "password changed" mailed, no session started', async () => {
    const who = await createUserWithPassword();
    await signIn(who.user.email!, who.password);
    expect(await sessionsOf(who.user.id)).toBe(1);
    const token = await requestLink(who);
    const result = await reset(token, 'the new password 1');
    expect(result.statusCode).toBe(200);
    expect(JSON.stringify([result.headers, result.multiValueHeaders])).not.toMatch(/session=/); // no session started
    expect(result.body).toContain('Sign in');
    expect(await sessionsOf(who.user.id)).toBe(0);
    expect((await signIn(who.user.email!, who.password)).statusCode).toBe(401);
    expect(headerOf(await signIn(who.user.email!, 'the new password 1'), 'set-cookie')).toBeDefined();
    expect(mailsTo(outbox, who.user.email!).map((m) => m.subject)).toContain('Your password was changed');
    const user = await getUsers().get(who.user.id);
    expect(user).toMatchObject({ credentialVersion: 1, emailVerifiedAt: expect.any(String) });
  });

  it('a reset whose sign-out step fails answers 503 and leaves the link usable; submitted again it ends the old sessions (behaviour RESET-7)', async () => {
    const who = await createUserWithPassword();
    await signIn(who.user.email!, who.password);
    expect(await sessionsOf(who.user.id)).toBe(1);
    const token = await requestLink(who);
    // Every attempt of the sessions-of-user query fails, the client's whole retry budget.
    const faults = DynamoFaults.install().fail({
      operation: 'Query',
      phase: 'before',
      where: (attempt) => JSON.stringify(attempt.input).includes(who.user.id),
    });
    let failed: APIGatewayProxyResult;
    try {
      failed = await reset(token, 'the new password 1');
    } finally {
      faults.uninstall();
    }
    expect(failed.statusCode).toBe(503);
    expect(faults.injected.length).toBeGreaterThan(0);
    expect((await signIn(who.user.email!, who.password)).statusCode).not.toBe(401); // the password is unchanged
    const again = await reset(token, 'the new password 1');
    expect(again.statusCode).toBe(200);
    expect(await sessionsOf(who.user.id)).toBe(0);
    expect((await signIn(who.user.email!, who.password)).statusCode).toBe(401);
  });

  it('a newer request kills the older link', async () => {
    const who = await createUserWithPassword();
    const first = await requestLink(who);
    // A minute later (the per-address throttle): the admin route issues the second link at once.
    const sent = await callAdmin(sendLinkHandler, {
      token: adminToken,
      method: 'POST',
      path: `/api/admin/users/${who.user.id}/password-reset`,
      pathParameters: { user_id: who.user.id },
    });
    expect(sent.statusCode).toBe(202);
    const second = latestResetToken(outbox, who.user.email!);
    expect(second).not.toBe(first);
    expect((await resetPage(first)).statusCode).toBe(400);
    expect((await reset(first, 'the new password 1')).statusCode).toBe(400);
    expect((await reset(second, 'the new password 2')).statusCode).toBe(200);
  });

  it('an admin password change (PATCH) kills an outstanding link, ends sessions and mails the user', async () => {
    const who = await createUserWithPassword();
    const token = await requestLink(who);
    await signIn(who.user.email!, who.password);
    const patched = await setPasswordAsAdmin(adminToken, who.user.id, 'set by the admin');
    expect(patched.statusCode).toBe(200);
    expect((await resetPage(token)).statusCode).toBe(400);
    expect((await reset(token, 'the new password 1')).statusCode).toBe(400);
    expect(await sessionsOf(who.user.id)).toBe(0);
    expect(mailsTo(outbox, who.user.email!).map((m) => m.subject)).toContain('Your password was changed');
  });

  it('an admin address change kills an outstanding link (it went to the old address) and clears email_verified', async () => {
    const who = await createUserWithPassword({ emailVerifiedAt: new Date().toISOString() });
    const token = await requestLink(who);
    const patched = await callAdmin(updateUserHandler, {
      token: adminToken,
      method: 'PATCH',
      path: `/api/admin/users/${who.user.id}`,
      pathParameters: { user_id: who.user.id },
      body: { email: `${unique('new')}@example.test` },
    });
    expect(jsonBody(patched)).toMatchObject({ email_verified: false });
    expect((await reset(token, 'the new password 1')).statusCode).toBe(400);
  });

  it('bad input on /reset-password: dead-link page or the form again with the reason, never a 500, nothing changed', async () => {
    const who = await createUserWithPassword();
    const token = await requestLink(who);
    expect((await resetPage('short')).statusCode).toBe(400);
    expect((await resetPageHandler(apiGatewayEvent({ path: '/reset-password' }), lambdaContext)).statusCode).toBe(400);
    const tooShort = await reset(token, 'short');
    expect(tooShort.statusCode).toBe(400);
    expect(tooShort.body).toContain('at least 8');
    const mismatch = await resetHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/reset-password',
        headers: browserHeaders(),
        body: form({ token, password: 'one password', password_confirmation: 'another one' }),
      }),
      lambdaContext,
    );
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('differ');
    const json = browserHeaders({ Accept: 'application/json' });
    expect(jsonBody(await reset('x'.repeat(43), 'a good new password', json)).error).toBe('invalid_grant');
    expect(jsonBody(await reset('bad', 'a good new password', json)).error).toBe('invalid_grant');
    expect((await reset(token, 'a good new password', browserHeaders({ 'Sec-Fetch-Site': 'cross-site' }))).statusCode).toBe(403);
    // The link still works: nothing was used up by the refusals.
    expect((await reset(token, 'a good new password')).statusCode).toBe(200);
  });
});

describe('the token never reaches a Referer, the address bar or the page (behaviour RESET-8)', () => {
  const secretFree = (result: APIGatewayProxyResult, token: string) => {
    expect(result.body).not.toContain(token);
    for (const [name, value] of Object.entries(result.headers ?? {}))
      if (name.toLowerCase() !== 'set-cookie') expect(String(value)).not.toContain(token);
  };

  it('a live link answers 303 to the bare path, no-referrer, the token in a short-lived HttpOnly Secure SameSite=Strict cookie scoped to /reset-password', async () => {
    const who = await createUserWithPassword();
    const token = await requestLink(who);
    const opened = await resetPage(token);
    expect(opened.statusCode).toBe(303);
    expect(headerOf(opened, 'location')).toBe('/reset-password');
    expect(headerOf(opened, 'referrer-policy')).toBe('no-referrer');
    expect(headerOf(opened, 'cache-control')).toBe('no-store');
    secretFree(opened, token);
    const cookie = headerOf(opened, 'set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^__Secure-reset=${token}; `));
    const attributes = cookie.split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['Path=/reset-password', 'HttpOnly', 'SameSite=Strict', 'Secure']));
    const maxAge = Number(attributes.find((a) => a.startsWith('Max-Age='))!.slice('Max-Age='.length));
    expect(maxAge).toBeGreaterThan(1700);
    expect(maxAge).toBeLessThanOrEqual(1800);
  });

  it('the bare page holds no token (not in the form, not in a header) and keeps same-origin, so its posts keep their Origin', async () => {
    const who = await createUserWithPassword();
    const token = await requestLink(who);
    const page = await formPage(linkCookie(await resetPage(token)));
    expect(page.statusCode).toBe(200);
    secretFree(page, token);
    expect(page.body).not.toContain('name="token"');
    expect(headerOf(page, 'referrer-policy')).toBe('same-origin');
    expect(page.body).toContain('<meta name="referrer" content="same-origin">');
  });

  it('a dead link is answered where it stands, with no-referrer in the header and in the page (its "ask for a new link" sends no Referer)', async () => {
    const dead = await resetPage('x'.repeat(43));
    expect(dead.statusCode).toBe(400);
    expect(headerOf(dead, 'referrer-policy')).toBe('no-referrer');
    expect(dead.body).toContain('<meta name="referrer" content="no-referrer">');
    expect(dead.body).not.toContain('content="same-origin"');
    expect(headerOf(dead, 'set-cookie')).toBeUndefined();
  });

  it('after a weak and a mismatched password the link still works from its cookie; the answers hold no token; success clears the cookie', async () => {
    const who = await createUserWithPassword();
    const token = await requestLink(who);
    const cookie = linkCookie(await resetPage(token));
    const weak = await resetWithCookie(cookie, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('at least 8');
    expect(weak.body).not.toContain('name="token"');
    secretFree(weak, token);
    expect(headerOf(weak, 'set-cookie')).toBeUndefined();
    const mismatch = await resetWithCookie(cookie, 'one good password', 'another password');
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('differ');
    secretFree(mismatch, token);
    const done = await resetWithCookie(cookie, 'the new password 1');
    expect(done.statusCode).toBe(200);
    secretFree(done, token);
    expect(done.multiValueHeaders?.['Set-Cookie']).toContainEqual(
      expect.stringMatching(/^__Secure-reset=; Max-Age=0; Path=\/reset-password;/),
    );
    expect((await signIn(who.user.email!, 'the new password 1')).statusCode).toBe(200);
    // Used: the cookie now holds a dead link, and the bare page says so and clears it.
    const after = await formPage(cookie);
    expect(after.statusCode).toBe(400);
    expect(after.body).toContain('no longer works');
    expect(headerOf(after, 'set-cookie')).toMatch(/^__Secure-reset=; Max-Age=0;/);
  });

  it('the bare page without a cookie shows the form (the cookie may be withheld after a click in webmail) and a post without one is a dead link; JSON callers get invalid_grant', async () => {
    const page = await formPage();
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('action="/reset-password"');
    expect(jsonBody(await formPage(undefined, 'application/json')).error).toBe('invalid_grant');
    const posted = await resetHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/reset-password',
        headers: browserHeaders(),
        body: form({ password: 'a good password', password_confirmation: 'a good password' }),
      }),
      lambdaContext,
    );
    expect(posted.statusCode).toBe(400);
    expect(posted.body).toContain('no longer works');
  });
});

describe('POST /api/admin/users/{user_id}/password-reset (behaviour ADMIN-17)', () => {
  it('202 with expires_in and no link in the response; the user gets the mail', async () => {
    const who = await createUserWithPassword();
    const result = await callAdmin(sendLinkHandler, {
      token: adminToken,
      method: 'POST',
      path: `/api/admin/users/${who.user.id}/password-reset`,
      pathParameters: { user_id: who.user.id },
    });
    expect(result.statusCode).toBe(202);
    expect(jsonBody(result)).toEqual({ expires_in: 1800 });
    expect(latestResetToken(outbox, who.user.email!)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('no such user: 404; a user without an address: 400, nothing written; no token: 401', async () => {
    const missing = await callAdmin(sendLinkHandler, {
      token: adminToken,
      method: 'POST',
      path: '/api/admin/users/usr_none/password-reset',
      pathParameters: { user_id: 'usr_none' },
    });
    expect(missing.statusCode).toBe(404);
    const who = await createUserWithPassword({ email: undefined });
    const noAddress = await callAdmin(sendLinkHandler, {
      token: adminToken,
      method: 'POST',
      path: `/api/admin/users/${who.user.id}/password-reset`,
      pathParameters: { user_id: who.user.id },
    });
    expect(noAddress.statusCode).toBe(400);
    expect(await ephemeralItems(`PWRESETUSER#${who.user.id}`)).toEqual([]);
    const anonymous = await sendLinkHandler(
      apiGatewayEvent({ method: 'POST', path: `/api/admin/users/${who.user.id}/password-reset`, pathParameters: { user_id: who.user.id } }),
      lambdaContext,
    );
    expect(anonymous.statusCode).toBe(401);
  });
});
