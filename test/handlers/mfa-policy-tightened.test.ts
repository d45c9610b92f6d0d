/**
 * A stricter MFA policy reaches the sign-ins made before it (behaviour MFA-9,
 * REFRESH-6, CODE-4, AUTHZ-12, DASH-1, OIDC Core 3.1.2.6): an admin signs in with the password
 * alone while the policy is `off`, then an admin sets it to `admins`. The refresh token of that
 * sign-in answers invalid_grant (and is not revoked), prompt=none through its session answers
 * login_required, an interactive authorization and the dashboard ask for the mailed code. On
 * tables of this file's own (test/support/own-tables.ts): the policy is one item per deployment.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import type { MfaPolicy } from '../../lambdas/config/settings';
import type { Client } from '../../lambdas/core/model';
import { handler as completeHandler } from '../../lambdas/handlers/authorize-complete';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { sessionCookieName } from '../../lambdas/http/cookies';
import { getSessions } from '../../lambdas/wiring/repositories';
import { ensureScopes } from '../support/admin-calls';
import { authorizeAs, dashboardPageAs, expectStepUpPage, setMfaPolicy } from '../support/mfa-policy';
import { adminClientToken, createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { mailsTo } from '../support/account';
import { useOutbox } from '../support/api-keys';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField, locationOf, pkcePair } from '../support/authorization';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { useOwnTables } from '../support/own-tables';
import { postToken } from '../support/token-calls';

useOwnTables();
const outbox = useOutbox();
const issuer = process.env.BASE_URL!;
const nowEpoch = () => Math.floor(Date.now() / 1000);

let adminToken: string;
let environmentId: string;
let client: Client;

beforeAll(async () => {
  await ensureScopes('openid', 'profile', 'email', 'admin');
  adminToken = (await adminClientToken()).token;
  environmentId = unique('env_');
  client = await createClient({ kind: 'app', environmentId });
});

const setPolicy = (policy: MfaPolicy) => setMfaPolicy(adminToken, policy);
const authorize = authorizeAs;
const dashboard = dashboardPageAs;

const redeem = (code: string, verifier: string) =>
  postToken({
    grant_type: 'authorization_code',
    client_id: client.clientId,
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUris[0]!,
  });
const refresh = (refreshToken: string) =>
  postToken({ grant_type: 'refresh_token', client_id: client.clientId, refresh_token: refreshToken });

function redirectParams(result: APIGatewayProxyResult): URLSearchParams {
  expect(result.statusCode).toBe(303);
  const location = locationOf(result);
  expect(`${location.origin}${location.pathname}`).toBe(client.redirectUris[0]);
  return location.searchParams;
}

interface PasswordOnlySignIn {
  readonly who: TestUser;
  /** The session cookie of the sign-in (amr pwd). */
  readonly cookie: string;
  /** A code of that sign-in, not redeemed yet. */
  readonly code: { readonly code: string; readonly verifier: string };
}

/** Under `policy` (off for an admin), the user signs in to the client with the password alone: no code is asked. */
async function passwordOnlySignIn(
  policy: MfaPolicy = 'off',
  overrides: { admin?: boolean } = { admin: true },
): Promise<PasswordOnlySignIn> {
  await setPolicy(policy);
  const who = await createUserWithPassword({ admin: true, ...overrides, environments: [environmentId] });
  const { verifier, challenge } = pkcePair();
  const started = await authorize(authorizeQuery(client, { code_challenge: challenge }));
  const signedIn = await signInStepHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/authorize',
      headers: browserHeaders(),
      body: form({ request_id: hiddenField(started.body, 'request_id'), email: who.user.email!, password: who.password }),
    }),
    lambdaContext,
  );
  const code = redirectParams(signedIn).get('code')!;
  expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
  return { who, cookie: cookieOf(signedIn), code: { code, verifier } };
}

/** The same, then the tokens of its code: the refresh token of a password-only sign-in. */
async function passwordOnlyTokens(policy: MfaPolicy = 'off', overrides: { admin?: boolean } = { admin: true }) {
  const signIn = await passwordOnlySignIn(policy, overrides);
  const tokens = await redeem(signIn.code.code, signIn.code.verifier);
  expect(tokens.status).toBe(200);
  return { ...signIn, refreshToken: String(tokens.body.refresh_token) };
}

describe('refresh tokens of a sign-in without the second factor the policy now asks for (behaviour REFRESH-6, MFA-9)', () => {
  it('answer invalid_grant once the policy moves from off to admins; nothing is revoked, so off again lets the same token rotate', async () => {
    const { refreshToken } = await passwordOnlyTokens('off');
    await setPolicy('admins');
    const refused = await refresh(refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/second factor/) });
    // Refused, not revoked (revoke only on a fact): the policy, not the sign-in, changed.
    await setPolicy('off');
    expect((await refresh(refreshToken)).status).toBe(200);
  });

  it("a non-admin's refresh token still rotates under admins, and is refused under everyone", async () => {
    const { refreshToken } = await passwordOnlyTokens('off', { admin: false });
    await setPolicy('admins');
    const rotated = await refresh(refreshToken);
    expect(rotated.status).toBe(200);
    await setPolicy('everyone');
    expect((await refresh(String(rotated.body.refresh_token))).body.error).toBe('invalid_grant');
  });

  it('a code of a password-only sign-in, redeemed after the policy tightened: invalid_grant, no tokens (behaviour CODE-4)', async () => {
    const { code } = await passwordOnlySignIn('off');
    await setPolicy('admins');
    const redeemed = await redeem(code.code, code.verifier);
    expect(redeemed.status).toBe(400);
    expect(redeemed.body).toMatchObject({ error: 'invalid_grant' });
    expect(redeemed.body).not.toHaveProperty('access_token');
  });
});

describe('the session of a sign-in without the second factor the policy now asks for (behaviour AUTHZ-12, MFA-9)', () => {
  it('prompt=none: error=login_required to the redirect URI, no code (OIDC Core 3.1.2.6)', async () => {
    const { cookie } = await passwordOnlySignIn('off');
    await setPolicy('admins');
    const params = redirectParams(await authorize(authorizeQuery(client, { prompt: 'none' }), cookie));
    expect(params.get('error')).toBe('login_required');
    expect(params.get('code')).toBeNull();
    expect(params.get('iss')).toBe(issuer);
  });

  it('an interactive authorization asks for the mailed code instead of reusing the session', async () => {
    const { who, cookie } = await passwordOnlySignIn('off');
    await setPolicy('admins');
    const page = await authorize(authorizeQuery(client), cookie);
    expectStepUpPage(page);
    expect(hiddenField(page.body, 'request_id')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Asking is a button: a GET never mails a code (a cross-site navigation could otherwise spend the user's codes).
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
  });

  it('at the consent decision an approval asks for the code and consumes nothing; a denial needs no code (behaviour AUTHZ-12)', async () => {
    const { cookie } = await passwordOnlySignIn('off');
    const consent = await authorize(authorizeQuery(client, { prompt: 'consent' }), cookie);
    expect(consent.body).toContain('action="/api/authorize/complete"');
    const requestId = hiddenField(consent.body, 'request_id');
    await setPolicy('admins');
    const decide = (decision: string) =>
      completeHandler(
        apiGatewayEvent({
          method: 'POST',
          path: '/api/authorize/complete',
          headers: { ...browserHeaders(), Cookie: cookie },
          body: form({ request_id: requestId, decision }),
        }),
        lambdaContext,
      );
    const approved = await decide('approve');
    expectStepUpPage(approved);
    expect(hiddenField(approved.body, 'request_id')).toBe(requestId);
    // Still unconsumed: the denial that follows finds it.
    expect(redirectParams(await decide('deny')).get('error')).toBe('access_denied');
  });

  it('the dashboard asks an admin for the mailed code, returning to the page asked for (behaviour DASH-1)', async () => {
    const { who, cookie } = await passwordOnlySignIn('off');
    expect((await dashboard('/dashboard/users', cookie)).statusCode).toBe(200);
    await setPolicy('admins');
    const page = await dashboard('/dashboard/users', cookie);
    expectStepUpPage(page);
    expect(hiddenField(page.body, 'return_to')).toBe('/dashboard/users');
    expect(page.body).not.toContain(who.user.email!);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
  });

  it('a session stored without amr counts as a password alone (behaviour MFA-9)', async () => {
    await setPolicy('admins');
    const who = await createUserWithPassword({ admin: true, environments: [environmentId] });
    const id = randomBytes(32).toString('base64url');
    await getSessions().createSession(
      id,
      { userId: who.user.id, authTime: nowEpoch(), expiresAtEpoch: nowEpoch() + 3600 },
      new Date().toISOString(),
    );
    const cookie = `${sessionCookieName(issuer)}=${id}`;
    expect(redirectParams(await authorize(authorizeQuery(client, { prompt: 'none' }), cookie)).get('error')).toBe('login_required');
  });

  it('a session with a second factor is still used at once under everyone', async () => {
    await setPolicy('everyone');
    const who = await createUserWithPassword({ admin: false, environments: [environmentId] });
    const id = randomBytes(32).toString('base64url');
    await getSessions().createSession(
      id,
      { userId: who.user.id, authTime: nowEpoch(), amr: ['hwk', 'user', 'mfa'], expiresAtEpoch: nowEpoch() + 3600 },
      new Date().toISOString(),
    );
    const params = redirectParams(await authorize(authorizeQuery(client, { prompt: 'none' }), `${sessionCookieName(issuer)}=${id}`));
    expect(params.get('code')).toEqual(expect.any(String));
  });
});
