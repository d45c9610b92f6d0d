/**
 * The authorization endpoint (behaviour AUTHZ-1..AUTHZ-9; OAuth 2.1 4.1; RFC 6749 4.1.2.1; RFC 7636; RFC 8707;
 * RFC 9207): the never-redirect checks, each error row that applies, the sign-in step, the
 * environment rule, code issuance, and consent for dynamically registered clients.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { Client } from '../../lambdas/core/model';
import { handler as completeHandler } from '../../lambdas/handlers/authorize-complete';
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { getEnvironments, getTokenStore } from '../../lambdas/wiring/repositories';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField, locationOf, pkcePair } from '../support/authorization';
import { createClient, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { postToken } from '../support/token-calls';

const issuer = process.env.BASE_URL!;
const dcrEnvironment = process.env.DCR_ENVIRONMENT_ID!;
const hostileName = `<script>alert("x")</script> & 'Friends'`;

let environmentId: string;
let staticClient: Client; // two redirect URIs, one with its own query
let singleUriClient: Client;
let dynamicClient: Client;
let alice: TestUser; // granted the static clients' environment and the DCR environment
let bob: TestUser; // granted nothing
let aliceCookie: string;
let bobCookie: string;

async function sessionCookie(user: TestUser): Promise<string> {
  const body = form({ email: user.user.email!, password: user.password });
  return cookieOf(
    await signInHandler(apiGatewayEvent({ method: 'POST', path: '/api/auth/signin', headers: browserHeaders(), body }), lambdaContext),
  );
}

beforeAll(async () => {
  environmentId = unique('env_');
  staticClient = await createClient({
    kind: 'app',
    environmentId,
    redirectUris: ['https://app.example.test/callback', 'https://app.example.test/other?tenant=a%20b'],
  });
  singleUriClient = await createClient({ kind: 'app', environmentId, scopes: ['openid', 'email'] });
  dynamicClient = await createClient({
    kind: 'app',
    name: hostileName,
    registrationType: 'dynamic',
    environmentId: unique('env_'), // not the DCR environment: the DCR environment is what counts
    redirectUris: ['http://127.0.0.1:8765/callback'],
    scopes: ['openid', 'profile'],
  });
  alice = await createUserWithPassword({ environments: [environmentId, dcrEnvironment] });
  bob = await createUserWithPassword({ environments: [] });
  [aliceCookie, bobCookie] = await Promise.all([sessionCookie(alice), sessionCookie(bob)]);
});

function authorize(
  query: Record<string, string>,
  headers: Record<string, string> = {},
  tweak?: (e: ReturnType<typeof apiGatewayEvent>) => void,
) {
  const event = apiGatewayEvent({ path: '/api/authorize', query, headers: { Accept: 'text/html', ...headers } });
  tweak?.(event);
  return authorizeHandler(event, lambdaContext);
}

const signInStep = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  signInStepHandler(
    apiGatewayEvent({ method: 'POST', path: '/api/authorize', headers: browserHeaders(headers), body: form(fields) }),
    lambdaContext,
  );

const complete = (fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) =>
  completeHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/authorize/complete',
      headers: browserHeaders({ ...(cookie ? { Cookie: cookie } : {}), ...headers }),
      body: form(fields),
    }),
    lambdaContext,
  );

function expectNoRedirect(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(400);
  expect(headerOf(result, 'location')).toBeUndefined();
  expect(headerOf(result, 'content-type')).toBe('text/html; charset=utf-8');
}

/** The error redirect: to the registered URI, with error, state and iss. */
function expectErrorRedirect(result: APIGatewayProxyResult, error: string, redirectUri = staticClient.redirectUris[0]!): URL {
  expect(result.statusCode).toBe(303);
  const location = locationOf(result);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri.split('?')[0]);
  expect(location.searchParams.get('error')).toBe(error);
  expect(location.searchParams.get('error_description')).toEqual(expect.any(String));
  expect(location.searchParams.get('state')).toBe('xyz-state');
  expect(location.searchParams.get('iss')).toBe(issuer);
  expect(location.searchParams.get('code')).toBeNull();
  return location;
}

describe('GET /api/authorize: client and redirect URI are checked first, and their errors never redirect (RFC 6749 4.1.2.1)', () => {
  it('shows an error page for an unknown client_id, even when a redirect_uri is given', async () => {
    expectNoRedirect(await authorize(authorizeQuery(staticClient, { client_id: 'tgc_doesnotexist' })));
  });

  it('shows an error page for a missing client_id', async () => {
    expectNoRedirect(await authorize(authorizeQuery(staticClient, { client_id: undefined })));
  });

  it('shows an error page for a redirect_uri that is not registered, compared as an exact string (OAuth 2.1 4.1.1)', async () => {
    for (const redirectUri of [
      'https://evil.example/callback',
      'https://app.example.test/callback/',
      'https://app.example.test/callback?extra=1',
      'https://APP.example.test/callback',
    ]) {
      expectNoRedirect(await authorize(authorizeQuery(staticClient, { redirect_uri: redirectUri })));
    }
  });

  it('requires redirect_uri when the client registered several, and accepts its omission when it registered one (OAuth 2.1 4.1.1)', async () => {
    expectNoRedirect(await authorize(authorizeQuery(staticClient, { redirect_uri: undefined })));
    const single = await authorize(authorizeQuery(singleUriClient, { redirect_uri: undefined, scope: undefined }));
    expect(single.statusCode).toBe(200);
    expect(single.body).toContain('action="/api/authorize"');
  });

  it('shows an error page for a client that may not use the code flow, whatever else is wrong', async () => {
    const machine = await createClient({ kind: 'app', environmentId, grantTypes: ['client_credentials'] });
    expectNoRedirect(await authorize(authorizeQuery(machine, { response_type: 'token' })));
  });

  it('never redirects on a bad redirect_uri even when every other parameter is wrong too', async () => {
    expectNoRedirect(
      await authorize({
        client_id: staticClient.clientId,
        redirect_uri: 'https://evil.example/cb',
        response_type: 'token',
        state: 'xyz-state',
      }),
    );
  });

  it('answers callers that do not ask for HTML with the OAuth JSON error instead of a page', async () => {
    const result = await authorizeHandler(apiGatewayEvent({ path: '/api/authorize', query: { client_id: 'tgc_nope' } }), lambdaContext);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toEqual({ error: 'invalid_request', error_description: 'The client is unknown.' });
  });
});

describe('GET /api/authorize: later errors redirect with error, state and iss (RFC 6749 4.1.2.1, RFC 9207 2)', () => {
  it('unsupported_response_type for a response_type other than code; invalid_request when it is missing', async () => {
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { response_type: 'token' })), 'unsupported_response_type');
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { response_type: undefined })), 'invalid_request');
  });

  it('invalid_request without a PKCE code_challenge (OAuth 2.1 4.1.1, RFC 7636 4.4.1)', async () => {
    const result = await authorize(authorizeQuery(staticClient, { code_challenge: undefined, code_challenge_method: undefined }));
    expectErrorRedirect(result, 'invalid_request');
  });

  it('invalid_request for code_challenge_method=plain or a missing method: only S256 (RFC 7636 4.2, 4.4.1)', async () => {
    const { verifier } = pkcePair();
    expectErrorRedirect(
      await authorize(authorizeQuery(staticClient, { code_challenge: verifier, code_challenge_method: 'plain' })),
      'invalid_request',
    );
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { code_challenge_method: undefined })), 'invalid_request');
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { code_challenge: 'too-short' })), 'invalid_request');
  });

  it('invalid_scope for a scope the client was not granted, or a malformed one (RFC 6749 3.3)', async () => {
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { scope: 'openid admin' })), 'invalid_scope');
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { scope: 'openid "quoted"' })), 'invalid_scope');
  });

  it('invalid_target for a resource that is not an absolute URI, has a fragment, or is repeated (RFC 8707 2)', async () => {
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { resource: '/relative' })), 'invalid_target');
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { resource: 'https://mcp.example.test/#frag' })), 'invalid_target');
    const repeated = await authorize(authorizeQuery(staticClient, { resource: 'https://a.example.test/' }), {}, (e) => {
      e.multiValueQueryStringParameters!.resource = ['https://a.example.test/', 'https://b.example.test/'];
    });
    expectErrorRedirect(repeated, 'invalid_target');
  });

  it('invalid_request for a repeated parameter (RFC 6749 3.1)', async () => {
    const result = await authorize(authorizeQuery(staticClient), {}, (e) => {
      e.multiValueQueryStringParameters!.scope = ['openid', 'profile'];
    });
    expectErrorRedirect(result, 'invalid_request');
  });

  it('keeps the query the registered redirect URI already has, exactly as registered (OAuth 2.1 4.1.2)', async () => {
    const redirectUri = staticClient.redirectUris[1]!;
    const result = await authorize(authorizeQuery(staticClient, { redirect_uri: redirectUri, response_type: 'token' }));
    expect(headerOf(result, 'location')!.startsWith(`${redirectUri}&error=unsupported_response_type&`)).toBe(true);
  });

  it('access_denied when the signed-in user was not granted the client environment (behaviour ENV-1)', async () => {
    expectErrorRedirect(await authorize(authorizeQuery(staticClient), { Cookie: bobCookie }), 'access_denied');
  });
});

describe('GET /api/authorize then POST /api/authorize: the sign-in step', () => {
  it('shows the sign-in form carrying an unguessable request id, with form-action allowing the redirect origin', async () => {
    const page = await authorize(authorizeQuery(staticClient));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post" action="/api/authorize">');
    expect(hiddenField(page.body, 'request_id')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(headerOf(page, 'content-security-policy')).toContain("form-action 'self' https://app.example.test;");
  });

  it('answers an unknown email and a wrong password with the same page and keeps the request for a retry', async () => {
    const requestId = hiddenField((await authorize(authorizeQuery(staticClient))).body, 'request_id');
    const wrong = await signInStep({ request_id: requestId, email: alice.user.email!, password: 'wrong' });
    const unknown = await signInStep({ request_id: requestId, email: 'nobody@example.test', password: 'wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    // Alike apart from the echoed email and the per-response script nonce.
    const page = (body: string, address: string) => body.replace(address, 'E').replace(/nonce="[^"]+"/g, 'nonce="N"');
    expect(page(wrong.body, alice.user.email!)).toBe(page(unknown.body, 'nobody@example.test'));
    expect(headerOf(wrong, 'set-cookie')).toBeUndefined();
    const right = await signInStep({ request_id: requestId, email: alice.user.email!, password: alice.password });
    expect(right.statusCode).toBe(303);
  });

  it('issues a single code to a static client, without consent: 303 with code, state and iss (OAuth 2.1 4.1.2, RFC 9207 2)', async () => {
    const { challenge } = pkcePair();
    const query = authorizeQuery(staticClient, { code_challenge: challenge, resource: 'https://mcp.example.test/', nonce: 'n-1' });
    const requestId = hiddenField((await authorize(query)).body, 'request_id');
    const started = Math.floor(Date.now() / 1000);
    const result = await signInStep({ request_id: requestId, email: alice.user.email!, password: alice.password });
    expect(result.statusCode).toBe(303);
    expect(headerOf(result, 'set-cookie')).toMatch(/^__Host-session=/);
    const location = locationOf(result);
    expect(`${location.origin}${location.pathname}`).toBe('https://app.example.test/callback');
    expect(location.searchParams.get('state')).toBe('xyz-state');
    expect(location.searchParams.get('iss')).toBe(issuer);
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const stored = await getTokenStore().getCode(code, started);
    expect(stored).toMatchObject({
      clientId: staticClient.clientId,
      userId: alice.user.id,
      scopes: ['openid', 'profile'],
      resource: 'https://mcp.example.test/',
      redirectUri: 'https://app.example.test/callback',
      codeChallenge: challenge,
      nonce: 'n-1',
    });
    // Behaviour CLAIM-3: codes live at most 10 minutes.
    expect(stored!.expiresAtEpoch - started).toBeLessThanOrEqual(600);

    // The request id is single use: replaying the sign-in post issues nothing.
    const replay = await signInStep({ request_id: requestId, email: alice.user.email!, password: alice.password });
    expectNoRedirect(replay);
  });

  it('grants the client scopes when scope is omitted, and records the registered redirect URI when it is omitted', async () => {
    const requestId = hiddenField(
      (await authorize(authorizeQuery(singleUriClient, { scope: undefined, redirect_uri: undefined }))).body,
      'request_id',
    );
    const code = locationOf(
      await signInStep({ request_id: requestId, email: alice.user.email!, password: alice.password }),
    ).searchParams.get('code')!;
    const stored = await getTokenStore().getCode(code, Math.floor(Date.now() / 1000));
    expect(stored).toMatchObject({ scopes: ['openid', 'email'], redirectUri: singleUriClient.redirectUris[0] });
  });

  it('refuses a request id that was never issued', async () => {
    expectNoRedirect(await signInStep({ request_id: 'A'.repeat(43), email: alice.user.email!, password: alice.password }));
  });

  it('access_denied for a user without the client environment, after signing them in (behaviour ENV-1)', async () => {
    const requestId = hiddenField((await authorize(authorizeQuery(staticClient))).body, 'request_id');
    const result = await signInStep({ request_id: requestId, email: bob.user.email!, password: bob.password });
    expectErrorRedirect(result, 'access_denied');
    expect(headerOf(result, 'set-cookie')).toMatch(/^__Host-session=/);
  });

  it('refuses a cross-site post of the sign-in step (RFC 6749 10.12)', async () => {
    const requestId = hiddenField((await authorize(authorizeQuery(staticClient))).body, 'request_id');
    const result = await signInStep(
      { request_id: requestId, email: alice.user.email!, password: alice.password },
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
    );
    expect(result.statusCode).toBe(403);
    expect(headerOf(result, 'location')).toBeUndefined();
  });
});

describe('GET /api/authorize with a session: static clients get the code at once', () => {
  it('redirects with a code and no consent page for a static client', async () => {
    const result = await authorize(authorizeQuery(staticClient), { Cookie: aliceCookie });
    expect(result.statusCode).toBe(303);
    expect(locationOf(result).searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.body).toBe('');
  });
});

describe('Consent for dynamically registered clients (behaviour AUTHZ-8, AUTHZ-9) and POST /api/authorize/complete', () => {
  const consentPage = () => authorize(authorizeQuery(dynamicClient), { Cookie: aliceCookie });

  it('shows a consent page naming the client (escaped), its redirect host and scopes, warning that it registered itself', async () => {
    const page = await consentPage();
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Friends&#39;');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('127.0.0.1:8765');
    expect(page.body).toContain('registered itself');
    expect(page.body).toContain('<code>openid</code>');
    expect(page.body).toContain('<form method="post" action="/api/authorize/complete">');
    expect(headerOf(page, 'content-security-policy')).toContain("form-action 'self' http://127.0.0.1:8765;");
    expect(headerOf(page, 'location')).toBeUndefined();
  });

  it('shows the consent page after the sign-in step too, never a code before consent', async () => {
    const requestId = hiddenField((await authorize(authorizeQuery(dynamicClient))).body, 'request_id');
    const result = await signInStep({ request_id: requestId, email: alice.user.email!, password: alice.password });
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('registered itself');
    expect(hiddenField(result.body, 'request_id')).toBe(requestId);
  });

  it('approve issues one code with state and iss; the same request cannot be completed twice', async () => {
    const requestId = hiddenField((await consentPage()).body, 'request_id');
    const result = await complete({ request_id: requestId, decision: 'approve' }, aliceCookie);
    expect(result.statusCode).toBe(303);
    const location = locationOf(result);
    expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:8765/callback');
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('xyz-state');
    expect(location.searchParams.get('iss')).toBe(issuer);
    expectNoRedirect(await complete({ request_id: requestId, decision: 'approve' }, aliceCookie));
  });

  it('of two concurrent approvals of one request exactly one gets a code (conditional delete)', async () => {
    const requestId = hiddenField((await consentPage()).body, 'request_id');
    const results = await Promise.all([1, 2].map(() => complete({ request_id: requestId, decision: 'approve' }, aliceCookie)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([303, 400]);
  });

  it('deny redirects with access_denied, state and iss (RFC 6749 4.1.2.1)', async () => {
    const requestId = hiddenField((await consentPage()).body, 'request_id');
    expectErrorRedirect(
      await complete({ request_id: requestId, decision: 'deny' }, aliceCookie),
      'access_denied',
      dynamicClient.redirectUris[0],
    );
  });

  it('is honoured only for the user the consent page was shown to: another session gets 403 and no redirect', async () => {
    const requestId = hiddenField((await consentPage()).body, 'request_id');
    const result = await complete({ request_id: requestId, decision: 'approve' }, bobCookie);
    expect(result.statusCode).toBe(403);
    expect(headerOf(result, 'location')).toBeUndefined();
  });

  it('requires a session, and refuses a cross-site post of the consent form (RFC 6749 10.12)', async () => {
    const requestId = hiddenField((await consentPage()).body, 'request_id');
    const noSession = await complete({ request_id: requestId, decision: 'approve' });
    expect(noSession.statusCode).toBe(403);
    const crossSite = await complete({ request_id: requestId, decision: 'approve' }, aliceCookie, { 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(headerOf(crossSite, 'location')).toBeUndefined();
    // Neither attempt used the request up.
    expect((await complete({ request_id: requestId, decision: 'approve' }, aliceCookie)).statusCode).toBe(303);
  });

  it('checks the DCR environment for dynamic clients, not the client record (behaviour ENV-1); with no user action, a page, not a redirect', async () => {
    const carol = await createUserWithPassword({ environments: [dynamicClient.environmentId] });
    const result = await authorize(authorizeQuery(dynamicClient), { Cookie: await sessionCookie(carol) });
    expect(result.statusCode).toBe(403);
    expect(headerOf(result, 'location')).toBeUndefined();
  });

  it('behaviour ENV-1 / RFC 9700 4.11.2: a user without the DCR environment who just signed in gets an error page, never a redirect to the dynamic client', async () => {
    const erin = await createUserWithPassword({ environments: [] });
    const page = await authorize(authorizeQuery(dynamicClient));
    const result = await signInStep({ request_id: hiddenField(page.body, 'request_id'), email: erin.user.email!, password: erin.password });
    expect(result.statusCode).toBe(403);
    expect(headerOf(result, 'location')).toBeUndefined();
    expect(headerOf(result, 'content-type')).toBe('text/html; charset=utf-8');
    expect(result.body).toContain('You do not have access to this application.');
  });

  it('never redirects a malformed request of a dynamic client without user action (RFC 9700 4.11.2: no open redirector)', async () => {
    for (const overrides of [{ response_type: 'token' }, { code_challenge: undefined }, { scope: 'admin' }]) {
      const result = await authorize(authorizeQuery(dynamicClient, overrides));
      expect(result.statusCode).toBe(400);
      expect(headerOf(result, 'location')).toBeUndefined();
    }
  });

  it('re-checks the environment on approval: a grant revoked while the page was open means access_denied', async () => {
    const dave = await createUserWithPassword({ environments: [dcrEnvironment] });
    const cookie = await sessionCookie(dave);
    const requestId = hiddenField((await authorize(authorizeQuery(dynamicClient), { Cookie: cookie })).body, 'request_id');
    await getEnvironments().revoke(dave.user.id, dcrEnvironment);
    expectErrorRedirect(
      await complete({ request_id: requestId, decision: 'approve' }, cookie),
      'access_denied',
      dynamicClient.redirectUris[0],
    );
  });
});

describe('behaviour AUTHZ-13: a loopback IP literal redirect URI matches on any port (RFC 8252 7.3)', () => {
  let loopbackStatic: Client;
  let loopbackDynamic: Client;
  beforeAll(async () => {
    loopbackStatic = await createClient({
      kind: 'app',
      environmentId,
      redirectUris: ['http://127.0.0.1/callback', 'http://[::1]:9000/callback', 'http://localhost:3000/callback'],
    });
    loopbackDynamic = await createClient({
      kind: 'app',
      registrationType: 'dynamic',
      environmentId: dcrEnvironment,
      redirectUris: ['http://127.0.0.1/callback'],
      scopes: ['openid'],
    });
  });

  it('issues the code of a static client to the port the request named', async () => {
    for (const redirectUri of ['http://127.0.0.1:51234/callback', 'http://[::1]:40001/callback']) {
      const result = await authorize(authorizeQuery(loopbackStatic, { redirect_uri: redirectUri }), { Cookie: aliceCookie });
      expect(result.statusCode).toBe(303);
      const location = locationOf(result);
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('redeems the code only with the very URI, port included, the authorization request named (RFC 6749 4.1.3)', async () => {
    const { verifier, challenge } = pkcePair();
    const redirectUri = 'http://127.0.0.1:51234/callback';
    const query = authorizeQuery(loopbackStatic, { redirect_uri: redirectUri, code_challenge: challenge });
    const code = locationOf(await authorize(query, { Cookie: aliceCookie })).searchParams.get('code')!;
    const redeem = (uri: string) =>
      postToken({ grant_type: 'authorization_code', client_id: loopbackStatic.clientId, code, code_verifier: verifier, redirect_uri: uri });
    // Refused before the code is spent: another port, or the registered URI without one.
    for (const other of ['http://127.0.0.1:51235/callback', 'http://127.0.0.1/callback']) {
      const refused = await redeem(other);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_grant');
    }
    expect((await redeem(redirectUri)).status).toBe(200);
  });

  it('sends the consent of a dynamic client back to the port the request named, and lets the page post there', async () => {
    const page = await authorize(authorizeQuery(loopbackDynamic, { redirect_uri: 'http://127.0.0.1:47000/callback', scope: 'openid' }), {
      Cookie: aliceCookie,
    });
    expect(page.statusCode).toBe(200);
    expect(headerOf(page, 'content-security-policy')).toContain("form-action 'self' http://127.0.0.1:47000;");
    const result = await complete({ request_id: hiddenField(page.body, 'request_id'), decision: 'approve' }, aliceCookie);
    expect(`${locationOf(result).origin}${locationOf(result).pathname}`).toBe('http://127.0.0.1:47000/callback');
  });

  it('shows an error page, never a redirect, for another path, query, host or scheme on a loopback port', async () => {
    for (const redirectUri of [
      'http://127.0.0.1:51234/other',
      'http://127.0.0.1:51234/callback?x=1',
      'http://127.0.0.2:51234/callback',
      'http://[::1]:51234/callback/',
      'https://127.0.0.1:51234/callback',
      'http://127.0.0.1:0/callback',
    ]) {
      expectNoRedirect(await authorize(authorizeQuery(loopbackDynamic, { redirect_uri: redirectUri })));
    }
  });

  it('keeps localhost to the exact registered port (RFC 8252 8.3)', async () => {
    expectNoRedirect(await authorize(authorizeQuery(loopbackStatic, { redirect_uri: 'http://localhost:3001/callback' })));
    const exact = await authorize(authorizeQuery(loopbackStatic, { redirect_uri: 'http://localhost:3000/callback' }));
    expect(exact.statusCode).toBe(200);
  });
});

describe('dpop_jkt (RFC 9449 10, behaviour CODE-5)', () => {
  const thumbprint = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs';

  it('is kept with the code, which the token endpoint then redeems only with that key', async () => {
    const result = await authorize(authorizeQuery(staticClient, { dpop_jkt: thumbprint }), { Cookie: aliceCookie });
    const code = locationOf(result).searchParams.get('code')!;
    const stored = await getTokenStore().getCode(code, Math.floor(Date.now() / 1000));
    expect(stored?.dpopJkt).toBe(thumbprint);
  });

  it('invalid_request for a dpop_jkt that is not a SHA-256 thumbprint, or a repeated one; no code', async () => {
    expectErrorRedirect(await authorize(authorizeQuery(staticClient, { dpop_jkt: 'short' }), { Cookie: aliceCookie }), 'invalid_request');
    const repeated = await authorize(authorizeQuery(staticClient, { dpop_jkt: thumbprint }), { Cookie: aliceCookie }, (e) => {
      e.multiValueQueryStringParameters!.dpop_jkt = [thumbprint, thumbprint];
    });
    expectErrorRedirect(repeated, 'invalid_request');
  });
});
