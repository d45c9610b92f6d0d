/**
 * OIDC `prompt` and `max_age` at the authorization endpoint (OIDC Core 3.1.2.1, 3.1.2.6;
 * behaviour AUTHZ-10): prompt=none never shows a page, prompt=login and an outlived max_age sign the
 * user in again, prompt=consent asks even a static client; the ID token's auth_time is the
 * sign-in that counted. Errors go to a trusted redirect URI only (RFC 9700 4.11.2). And the
 * redirect_uri an authorization request named must be repeated at the token endpoint.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Client } from '../../lambdas/core/model';
import { handler as completeHandler } from '../../lambdas/handlers/authorize-complete';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { sessionCookieName } from '../../lambdas/http/cookies';
import { getSessions, getTokenStore } from '../../lambdas/wiring/repositories';
import { authorizeQuery, browserHeaders, form, hiddenField, locationOf, pkcePair } from '../support/authorization';
import { createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { apiGatewayEvent, headerOf, lambdaContext } from '../support/events';
import { postToken } from '../support/token-calls';

const issuer = process.env.BASE_URL!;
const nowEpoch = () => Math.floor(Date.now() / 1000);

let staticClient: Client;
let dynamicClient: Client;
let alice: TestUser;

beforeAll(async () => {
  const environmentId = unique('env_');
  staticClient = await createClient({ kind: 'app', environmentId });
  dynamicClient = await createClient({
    kind: 'app',
    registrationType: 'dynamic',
    redirectUris: ['http://127.0.0.1:8765/callback'],
    scopes: ['openid', 'profile'],
  });
  alice = await createUserWithPassword({ environments: [environmentId, process.env.DCR_ENVIRONMENT_ID!] });
});

/** A session cookie whose sign-in happened `ageSeconds` ago. */
async function sessionSignedInAgo(ageSeconds: number, user = alice): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const authTime = nowEpoch() - ageSeconds;
  await getSessions().createSession(id, { userId: user.user.id, authTime, expiresAtEpoch: nowEpoch() + 3600 }, new Date().toISOString());
  return `${sessionCookieName(issuer)}=${id}`;
}

const authorize = (query: Record<string, string>, cookie?: string) =>
  authorizeHandler(
    apiGatewayEvent({ path: '/api/authorize', query, headers: { Accept: 'text/html', ...(cookie ? { Cookie: cookie } : {}) } }),
    lambdaContext,
  );

const signInStep = (requestId: string, user = alice) =>
  signInStepHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/authorize',
      headers: browserHeaders(),
      body: form({ request_id: requestId, email: user.user.email!, password: user.password }),
    }),
    lambdaContext,
  );

function redirectParams(result: APIGatewayProxyResult, client = staticClient): URLSearchParams {
  expect(result.statusCode).toBe(303);
  const location = locationOf(result);
  expect(`${location.origin}${location.pathname}`).toBe(client.redirectUris[0]);
  expect(location.searchParams.get('iss')).toBe(issuer);
  return location.searchParams;
}

const isSignInForm = (result: APIGatewayProxyResult) => result.statusCode === 200 && result.body.includes('name="password"');

describe('prompt=none (OIDC Core 3.1.2.1, 3.1.2.6)', () => {
  it("without a session: error=login_required to the static client's redirect URI, with state and iss, and no page", async () => {
    const params = redirectParams(await authorize(authorizeQuery(staticClient, { prompt: 'none' })));
    expect(params.get('error')).toBe('login_required');
    expect(params.get('state')).toBe('xyz-state');
    expect(params.get('code')).toBeNull();
  });

  it('without a session, for a dynamic client: an error page, never a redirect to its unvetted URI (RFC 9700 4.11.2)', async () => {
    const result = await authorize(authorizeQuery(dynamicClient, { prompt: 'none' }));
    expect(result.statusCode).toBe(400);
    expect(headerOf(result, 'location')).toBeUndefined();
    expect(result.body).toContain('The user is not signed in.');
  });

  it('with a session: the code at once, never a page', async () => {
    const params = redirectParams(await authorize(authorizeQuery(staticClient, { prompt: 'none' }), await sessionSignedInAgo(10)));
    expect(params.get('code')).toEqual(expect.any(String));
  });

  it('with a session, where consent would be needed (a dynamic client): consent_required as a page, no code', async () => {
    const result = await authorize(authorizeQuery(dynamicClient, { prompt: 'none' }), await sessionSignedInAgo(10));
    expect(result.statusCode).toBe(400);
    expect(headerOf(result, 'location')).toBeUndefined();
    expect(result.body).toContain('approve this application');
  });

  it('with a session older than max_age: login_required', async () => {
    const params = redirectParams(
      await authorize(authorizeQuery(staticClient, { prompt: 'none', max_age: '60' }), await sessionSignedInAgo(600)),
    );
    expect(params.get('error')).toBe('login_required');
  });

  it('combined with another value: invalid_request', async () => {
    const params = redirectParams(await authorize(authorizeQuery(staticClient, { prompt: 'none login' }), await sessionSignedInAgo(10)));
    expect(params.get('error')).toBe('invalid_request');
  });
});

describe('prompt=login and max_age: sign in again (OIDC Core 3.1.2.1)', () => {
  it('prompt=login with a live session shows the sign-in form; the code that follows carries the new sign-in time', async () => {
    const cookie = await sessionSignedInAgo(3000);
    const page = await authorize(authorizeQuery(staticClient, { prompt: 'login' }), cookie);
    expect(isSignInForm(page)).toBe(true);
    const before = nowEpoch();
    const params = redirectParams(await signInStep(hiddenField(page.body, 'request_id')));
    const code = await getTokenStore().getCode(params.get('code')!, nowEpoch());
    expect(code?.authTime).toBeGreaterThanOrEqual(before);
  });

  it("max_age shorter than the session's age shows the sign-in form; a longer one issues the code at once", async () => {
    const cookie = await sessionSignedInAgo(600);
    expect(isSignInForm(await authorize(authorizeQuery(staticClient, { max_age: '300' }), cookie))).toBe(true);
    expect(redirectParams(await authorize(authorizeQuery(staticClient, { max_age: '3600' }), cookie)).get('code')).toEqual(
      expect.any(String),
    );
  });

  it('max_age=0 always signs in again; a malformed max_age is invalid_request', async () => {
    expect(isSignInForm(await authorize(authorizeQuery(staticClient, { max_age: '0' }), await sessionSignedInAgo(1)))).toBe(true);
    expect(isSignInForm(await authorize(authorizeQuery(staticClient, { max_age: '0' }), await sessionSignedInAgo(0)))).toBe(true);
    expect(redirectParams(await authorize(authorizeQuery(staticClient, { max_age: '-5' }))).get('error')).toBe('invalid_request');
  });

  it('the ID token carries auth_time, the time of the sign-in that counted (OIDC Core 2, 3.1.2.1)', async () => {
    const cookie = await sessionSignedInAgo(120);
    const { verifier, challenge } = pkcePair();
    const params = redirectParams(await authorize(authorizeQuery(staticClient, { max_age: '3600', code_challenge: challenge }), cookie));
    const tokens = await postToken({
      grant_type: 'authorization_code',
      client_id: staticClient.clientId,
      code: params.get('code')!,
      code_verifier: verifier,
      redirect_uri: staticClient.redirectUris[0]!,
    });
    expect(tokens.status).toBe(200);
    const authTime = decodeJwt(String(tokens.body.id_token)).auth_time as number;
    expect(Math.abs(authTime - (nowEpoch() - 120))).toBeLessThanOrEqual(2);
  });
});

describe('prompt=consent (OIDC Core 3.1.2.1)', () => {
  it('a static client, normally not asked, gets the consent page (without the self-registered warning); Allow issues the code', async () => {
    const cookie = await sessionSignedInAgo(10);
    const page = await authorize(authorizeQuery(staticClient, { prompt: 'consent' }), cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="decision"');
    expect(page.body).not.toContain('registered itself');
    const approved = await completeHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/authorize/complete',
        headers: browserHeaders({ Cookie: cookie }),
        body: form({ request_id: hiddenField(page.body, 'request_id'), decision: 'approve' }),
      }),
      lambdaContext,
    );
    expect(redirectParams(approved).get('code')).toEqual(expect.any(String));
  });

  it('an unknown prompt value is invalid_request', async () => {
    expect(redirectParams(await authorize(authorizeQuery(staticClient, { prompt: 'create' }))).get('error')).toBe('invalid_request');
  });
});

describe('OAuth 2.1 4.1.3: redirect_uri at the token endpoint', () => {
  async function codeFor(query: Record<string, string | undefined>): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = pkcePair();
    const params = redirectParams(
      await authorize(authorizeQuery(staticClient, { code_challenge: challenge, ...query }), await sessionSignedInAgo(5)),
    );
    return { code: params.get('code')!, verifier };
  }
  const redeem = (code: { code: string; verifier: string }, redirectUri?: string) =>
    postToken({
      grant_type: 'authorization_code',
      client_id: staticClient.clientId,
      code: code.code,
      code_verifier: code.verifier,
      ...(redirectUri !== undefined ? { redirect_uri: redirectUri } : {}),
    });

  it('a code whose request named redirect_uri is refused without it (invalid_grant), and redeems with the identical value', async () => {
    const named = await codeFor({ redirect_uri: staticClient.redirectUris[0] });
    const omitted = await redeem(named);
    expect(omitted.status).toBe(400);
    expect(omitted.body.error).toBe('invalid_grant');
    const again = await codeFor({ redirect_uri: staticClient.redirectUris[0] });
    expect((await redeem(again, staticClient.redirectUris[0])).status).toBe(200);
  });

  it('a code whose request omitted it (one registered URI) redeems without it', async () => {
    const code = await codeFor({ redirect_uri: undefined });
    expect((await redeem(code)).status).toBe(200);
  });
});
