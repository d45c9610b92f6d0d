/**
 * POST /api/auth/step-up (behaviour MFA-10, AUTHZ-12, DASH-1): a session whose sign-in
 * lacks the second factor the MFA policy now asks for gets the mailed code, and the right code
 * goes on with the authorization or back to the dashboard, with a new session (amr pwd otp mfa).
 * On tables of this file's own (test/support/own-tables.ts): the policy is one item per deployment.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { decodeJwt } from 'jose';
import { randomBytes } from 'node:crypto';
import type { MfaPolicy } from '../../lambdas/config/settings';
import type { Client } from '../../lambdas/core/model';
import { handler as codeHandler } from '../../lambdas/handlers/sign-in-code';
import { handler as stepUpHandler } from '../../lambdas/handlers/sign-in-step-up';
import { sessionCookieName } from '../../lambdas/http/cookies';
import { getSessions } from '../../lambdas/wiring/repositories';
import { ensureScopes } from '../support/admin-calls';
import { authorizeAs, dashboardPageAs, setMfaPolicy } from '../support/mfa-policy';
import { adminClientToken, createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { ephemeralItems, latestCode, mailsTo } from '../support/account';
import { useOutbox } from '../support/api-keys';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField, locationOf, pkcePair } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
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
  await setPolicy('admins');
});

const setPolicy = (policy: MfaPolicy) => setMfaPolicy(adminToken, policy);
const authorize = authorizeAs;
const dashboard = dashboardPageAs;

/** An admin signed in with the password alone (as under a policy of `off`): the session of that sign-in. */
async function passwordOnlyAdmin(): Promise<{ who: TestUser; cookie: string }> {
  const who = await createUserWithPassword({ admin: true, environments: [environmentId] });
  const id = randomBytes(32).toString('base64url');
  await getSessions().createSession(
    id,
    { userId: who.user.id, authTime: nowEpoch() - 60, amr: ['pwd'], credentialVersion: 0, expiresAtEpoch: nowEpoch() + 3600 },
    new Date().toISOString(),
  );
  return { who, cookie: `${sessionCookieName(issuer)}=${id}` };
}

const stepUp = (fields: Record<string, string>, cookie?: string, headers = browserHeaders()) =>
  stepUpHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/auth/step-up',
      headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
      body: form(fields),
    }),
    lambdaContext,
  );
const enterCode = (fields: Record<string, string>) =>
  codeHandler(apiGatewayEvent({ method: 'POST', path: '/api/auth/otp', headers: browserHeaders(), body: form(fields) }), lambdaContext);
function codeParam(result: APIGatewayProxyResult): string {
  expect(result.statusCode).toBe(303);
  const location = locationOf(result);
  expect(`${location.origin}${location.pathname}`).toBe(client.redirectUris[0]);
  expect(location.searchParams.get('state')).toBe('xyz-state');
  expect(location.searchParams.get('iss')).toBe(issuer);
  return location.searchParams.get('code')!;
}

async function sessionAmr(userId: string): Promise<unknown[]> {
  return (await ephemeralItems('SESSION#')).filter((item) => item.userId === userId).map((item) => item.amr);
}

describe('within an authorization (behaviour AUTHZ-12, MFA-10)', () => {
  it('the button mails one code; the right code issues the authorization code with a new session of amr pwd otp mfa', async () => {
    const { who, cookie } = await passwordOnlyAdmin();
    const { verifier, challenge } = pkcePair();
    const asked = await authorize(authorizeQuery(client, { code_challenge: challenge }), cookie);
    expect(asked.statusCode).toBe(200);
    const requestId = hiddenField(asked.body, 'request_id');
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);

    const codePage = await stepUp({ request_id: requestId }, cookie);
    expect(codePage.statusCode).toBe(200);
    expect(codePage.body).toContain('action="/api/auth/otp"');
    expect(codePage.body).toContain(`${who.user.email![0]}•••@example.test`);
    expect(hiddenField(codePage.body, 'request_id')).toBe(requestId);
    // The code page's final redirect goes to the client: its CSP form-action allows that origin.
    expect(headerOf(codePage, 'content-security-policy')).toContain('https://app.example.test');
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(1);

    const done = await enterCode({
      challenge_id: hiddenField(codePage.body, 'challenge_id'),
      code: latestCode(outbox, who.user.email!),
      request_id: requestId,
    });
    const code = codeParam(done);
    expect(cookieOf(done)).not.toBe(cookie);
    expect(await sessionAmr(who.user.id)).toContainEqual(['pwd', 'otp', 'mfa']);
    const tokens = await postToken({
      grant_type: 'authorization_code',
      client_id: client.clientId,
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUris[0]!,
    });
    expect(tokens.status).toBe(200);
    expect(decodeJwt(String(tokens.body.id_token)).amr).toEqual(['pwd', 'otp', 'mfa']);
    // Its refresh token meets the policy.
    const refreshed = await postToken({
      grant_type: 'refresh_token',
      client_id: client.clientId,
      refresh_token: String(tokens.body.refresh_token),
    });
    expect(refreshed.status).toBe(200);
  });

  it('a caller that does not ask for HTML gets the challenge as JSON (behaviour MFA-2)', async () => {
    const { cookie } = await passwordOnlyAdmin();
    const requestId = hiddenField((await authorize(authorizeQuery(client), cookie)).body, 'request_id');
    const result = await stepUp({ request_id: requestId }, cookie, browserHeaders({ Accept: 'application/json' }));
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({ second_factor: 'email_otp', challenge_id: expect.any(String), expires_in: 600 });
  });

  it('the policy relaxed since the page was shown: no code, the authorization goes on with the session', async () => {
    const { who, cookie } = await passwordOnlyAdmin();
    const requestId = hiddenField((await authorize(authorizeQuery(client), cookie)).body, 'request_id');
    await setPolicy('off');
    try {
      expect(codeParam(await stepUp({ request_id: requestId }, cookie))).toEqual(expect.any(String));
      expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
    } finally {
      await setPolicy('admins');
    }
  });
});

describe('from the dashboard (behaviour DASH-1, MFA-10)', () => {
  it('the code brings the admin back to the page asked for, which then opens', async () => {
    const { who, cookie } = await passwordOnlyAdmin();
    const asked = await dashboard('/dashboard/users', cookie);
    const codePage = await stepUp({ return_to: hiddenField(asked.body, 'return_to') }, cookie);
    expect(codePage.body).toContain('action="/api/auth/otp"');
    const done = await enterCode({ challenge_id: hiddenField(codePage.body, 'challenge_id'), code: latestCode(outbox, who.user.email!) });
    expect(done.statusCode).toBe(303);
    expect(headerOf(done, 'location')).toBe('/dashboard/users');
    expect((await dashboard('/dashboard/users', cookieOf(done))).statusCode).toBe(200);
  });
});

describe('refusals (behaviour MFA-10, SIGNIN-5, SIGNIN-6)', () => {
  it('a cross-site post: 403, nothing mailed', async () => {
    const { who, cookie } = await passwordOnlyAdmin();
    const result = await stepUp(
      { return_to: '/dashboard' },
      cookie,
      browserHeaders({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }),
    );
    expect(result.statusCode).toBe(403);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
  });

  it('no session: back to sign-in with return_to; within an authorization a page saying the sign-in ended', async () => {
    const toSignIn = await stepUp({ return_to: '/dashboard/users' });
    expect(toSignIn.statusCode).toBe(303);
    expect(headerOf(toSignIn, 'location')).toBe(`/api/auth/signin?return_to=${encodeURIComponent('/dashboard/users')}`);
    const { cookie } = await passwordOnlyAdmin();
    const requestId = hiddenField((await authorize(authorizeQuery(client), cookie)).body, 'request_id');
    const ended = await stepUp({ request_id: requestId });
    expect(ended.statusCode).toBe(403);
  });

  it('an unknown request id: 400, nothing mailed; a return_to to another origin is dropped', async () => {
    const { who, cookie } = await passwordOnlyAdmin();
    const unknown = await stepUp({ request_id: randomBytes(32).toString('base64url') }, cookie);
    expect(unknown.statusCode).toBe(400);
    expect(mailsTo(outbox, who.user.email!)).toHaveLength(0);
    const codePage = await stepUp({ return_to: '//evil.example/' }, cookie);
    const done = await enterCode({ challenge_id: hiddenField(codePage.body, 'challenge_id'), code: latestCode(outbox, who.user.email!) });
    expect(done.statusCode).toBe(200);
    expect(headerOf(done, 'location')).toBeUndefined();
  });

  it('malformed input: 400, never a 500', async () => {
    const { cookie } = await passwordOnlyAdmin();
    expect((await stepUp({ request_id: 'short' }, cookie)).statusCode).toBe(400);
  });
});
