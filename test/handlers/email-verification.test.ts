/**
 * Email verification (behaviour VERIFY-1..VERIFY-6:
 * /api/users/email-verification/request and /verify):
 * who may call (the session, or the user's own bearer token with sub, not key-minted), no
 * address → 400 with nothing written, already verified → no mail, the code's rules and its
 * binding to the address, email_verified in userinfo, the per-user throttle, bad input.
 */
import { handler as requestHandler } from '../../lambdas/handlers/email-verification-request';
import { handler as verifyHandler } from '../../lambdas/handlers/email-verification-verify';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { handler as userinfoHandler } from '../../lambdas/handlers/userinfo';
import { updateUser } from '../../lambdas/core/admin/users';
import { getAdmin } from '../../lambdas/wiring/admin';
import { getUsers } from '../../lambdas/wiring/repositories';
import { useOutbox } from '../support/api-keys';
import { bearer, createClient, createUserWithPassword, issueAccessToken, type TestUser, unique } from '../support/fixtures';
import { ephemeralItems, latestCode, mailsTo } from '../support/account';
import { browserHeaders, cookieOf, form } from '../support/authorization';
import { apiGatewayEvent, jsonBody, lambdaContext } from '../support/events';
import { testAdminActor } from '../support/admin-calls';

const outbox = useOutbox();

async function tokenOf(who: TestUser, extra: { apiKeyId?: string; sub?: string | null } = {}): Promise<string> {
  const client = await createClient({ scopes: ['openid', 'email'] });
  const sub = extra.sub === null ? undefined : (extra.sub ?? who.user.id);
  return (
    await issueAccessToken({
      clientId: client.clientId,
      ...(sub ? { sub } : {}),
      scopes: ['openid', 'email'],
      ...(extra.apiKeyId ? { apiKeyId: extra.apiKeyId } : {}),
    })
  ).token;
}

const requestCode = (headers: Record<string, string>) =>
  requestHandler(apiGatewayEvent({ method: 'POST', path: '/api/users/email-verification/request', headers }), lambdaContext);
const verify = (headers: Record<string, string>, body: unknown) =>
  verifyHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/users/email-verification/verify',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    lambdaContext,
  );
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /api/users/email-verification/request (behaviour VERIFY-1..VERIFY-3)', () => {
  it("with the user's bearer token: 202 expires_in 600, one mail with a 6-digit code, only its hash stored", async () => {
    const who = await createUserWithPassword();
    const result = await requestCode(bearer(await tokenOf(who)));
    expect(result.statusCode).toBe(202);
    expect(jsonBody(result)).toEqual({ email_verified: false, expires_in: 600 });
    const code = latestCode(outbox, who.user.email!);
    const [item] = await ephemeralItems(`EMAILVERIFY#${who.user.id}`);
    expect(item).toMatchObject({ email: who.user.email, codeHash: expect.stringMatching(/^\$argon2id\$/) });
    expect(JSON.stringify(item)).not.toContain(code);
  });

  it('with the session cookie (same-origin post) works too; a cross-site post with the cookie is 403', async () => {
    const who = await createUserWithPassword();
    const cookie = cookieOf(
      await signInHandler(
        apiGatewayEvent({
          method: 'POST',
          path: '/api/auth/signin',
          headers: browserHeaders(),
          body: form({ email: who.user.email!, password: who.password }),
        }),
        lambdaContext,
      ),
    );
    expect((await requestCode(browserHeaders({ Cookie: cookie, 'Sec-Fetch-Site': 'cross-site' }))).statusCode).toBe(403);
    expect((await requestCode(browserHeaders({ Cookie: cookie }))).statusCode).toBe(202);
  });

  it('already verified: 200 email_verified true, and no mail', async () => {
    const who = await createUserWithPassword({ emailVerifiedAt: new Date().toISOString() });
    const result = await requestCode(bearer(await tokenOf(who)));
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ email_verified: true });
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
  });

  it('no address: 400 invalid_request, nothing written (no code, no send counted)', async () => {
    const who = await createUserWithPassword({ email: undefined });
    const result = await requestCode(bearer(await tokenOf(who)));
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    expect(await ephemeralItems(`EMAILVERIFY#${who.user.id}`)).toEqual([]);
    expect(await ephemeralItems(`SENDRATE#EMAILVERIFY#${who.user.id}`)).toEqual([]);
  });

  it('a second request within a minute: 429 from the service, no second mail', async () => {
    const who = await createUserWithPassword();
    const token = await tokenOf(who);
    await requestCode(bearer(token));
    const again = await requestCode(bearer(token));
    expect(again.statusCode).toBe(429);
    expect(jsonBody(again).error).toBe('too_many_requests');
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(1);
  });

  it('refused callers: a key-minted token 403, a token without sub 403, no credential 401, a bad token 401', async () => {
    const who = await createUserWithPassword();
    expect((await requestCode(bearer(await tokenOf(who, { apiKeyId: 'abcdef0123456789' })))).statusCode).toBe(403);
    expect((await requestCode(bearer(await tokenOf(who, { sub: null })))).statusCode).toBe(403);
    const none = await requestCode({});
    expect(none.statusCode).toBe(401);
    expect(jsonBody(none).error).toBe('invalid_token');
    expect((await requestCode(bearer('not.a.jwt'))).statusCode).toBe(401);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
  });
});

describe('POST /api/users/email-verification/verify (behaviour VERIFY-4..VERIFY-6)', () => {
  it('the right code: 200 email_verified true; userinfo says so (OIDC Core 5.1); the code is single use', async () => {
    const who = await createUserWithPassword();
    const token = await tokenOf(who);
    await requestCode(bearer(token));
    const code = latestCode(outbox, who.user.email!);
    const result = await verify(bearer(token), { code });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({ email_verified: true });
    const info = await userinfoHandler(apiGatewayEvent({ path: '/api/userinfo', headers: bearer(token) }), lambdaContext);
    expect(jsonBody(info)).toMatchObject({ email: who.user.email, email_verified: true });
    const again = await verify(bearer(token), { code });
    expect(again.statusCode).toBe(400);
    expect(jsonBody(again).error).toBe('invalid_grant');
  });

  it('5 wrong codes: the code is used up (every attempt counted, kept for a check still running) and the right code is refused (behaviour VERIFY-4, MFA-4: 5 attempts)', async () => {
    const who = await createUserWithPassword();
    const token = await tokenOf(who);
    await requestCode(bearer(token));
    const code = latestCode(outbox, who.user.email!);
    for (let i = 0; i < 5; i++) expect(jsonBody(await verify(bearer(token), { code: wrong(code) })).error).toBe('invalid_grant');
    expect((await ephemeralItems(`EMAILVERIFY#${who.user.id}`)).map((item) => (item.attemptTokens as Set<string>).size)).toEqual([5]);
    expect((await verify(bearer(token), { code })).statusCode).toBe(400);
  });

  it('20 parallel wrong guesses count at most 5 attempts', async () => {
    const who = await createUserWithPassword();
    const token = await tokenOf(who);
    await requestCode(bearer(token));
    const code = latestCode(outbox, who.user.email!);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verify(bearer(token), { code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0') })),
    );
    expect(results.every((r) => r.statusCode === 400)).toBe(true);
    expect((await verify(bearer(token), { code })).statusCode).toBe(400);
  });

  it('the address changed since the code was sent: refused, and email_verified stays false', async () => {
    const who = await createUserWithPassword();
    const token = await tokenOf(who);
    await requestCode(bearer(token));
    const code = latestCode(outbox, who.user.email!);
    await updateUser(getAdmin(), testAdminActor, { userId: who.user.id, email: `${unique('moved')}@example.test` });
    expect(jsonBody(await verify(bearer(token), { code })).error).toBe('invalid_grant');
    expect((await getUsers().get(who.user.id))!.emailVerifiedAt).toBeUndefined();
  });

  it("another user's code does not verify this user (a code is bound to its user)", async () => {
    const alice = await createUserWithPassword();
    const bob = await createUserWithPassword();
    await requestCode(bearer(await tokenOf(alice)));
    const bobToken = await tokenOf(bob);
    await requestCode(bearer(bobToken));
    const aliceCode = latestCode(outbox, alice.user.email!);
    if (aliceCode === latestCode(outbox, bob.user.email!)) return;
    expect((await verify(bearer(bobToken), { code: aliceCode })).statusCode).toBe(400);
  });

  it('changing the address clears email_verified', async () => {
    const who = await createUserWithPassword({ emailVerifiedAt: new Date().toISOString() });
    const updated = await updateUser(getAdmin(), testAdminActor, { userId: who.user.id, email: `${unique('changed')}@example.test` });
    expect(updated.emailVerifiedAt).toBeUndefined();
    expect((await getUsers().get(who.user.id))!.emailVerifiedAt).toBeUndefined();
  });

  it('bad input: 400 invalid_request (415 for the wrong type), never a 500, no attempt counted', async () => {
    const who = await createUserWithPassword();
    const token = await tokenOf(who);
    await requestCode(bearer(token));
    for (const body of [{}, { code: 12 }, { code: 'abcdef' }, { code: '1234567' }, { code: '' }, [], 'not json']) {
      const result = await verify(bearer(token), body);
      expect(result.statusCode).toBe(400);
      expect(jsonBody(result).error).toBe('invalid_request');
    }
    const wrongType = await verifyHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/users/email-verification/verify',
        headers: { ...bearer(token), 'Content-Type': 'text/plain' },
        body: '123456',
      }),
      lambdaContext,
    );
    expect(wrongType.statusCode).toBe(415);
    const [item] = await ephemeralItems(`EMAILVERIFY#${who.user.id}`);
    expect(item!.attemptTokens).toBeUndefined();
  });
});
