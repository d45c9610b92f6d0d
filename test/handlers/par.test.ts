/**
 * Pushed authorization requests (RFC 9126; behaviour AUTHZ-14..AUTHZ-18): POST /api/par with the
 * client authenticated as at the token endpoint, the pushed request's validation and storage, its
 * single use at GET /api/authorize, and the server-wide and per-client "require PAR" switches.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createHash } from 'node:crypto';
import type { Client } from '../../lambdas/core/model';
import { requestUriPrefix } from '../../lambdas/core/pushed-authorization';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as signInStep } from '../../lambdas/handlers/authorize-sign-in';
import { handler as metadataHandler } from '../../lambdas/handlers/oauth-authorization-server-metadata';
import { handler as parHandler } from '../../lambdas/handlers/par';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { resetContainer } from '../../lambdas/wiring/container';
import { getPushedRequests } from '../../lambdas/wiring/pushed-requests';
import { getClientRepository, getTokenStore } from '../../lambdas/wiring/repositories';
import { ephemeralItems } from '../support/account';
import { dpopKey } from '../support/dpop';
import { authorizeQuery, browserHeaders, cookieOf, form, hiddenField, locationOf, pkcePair } from '../support/authorization';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';
import { createClient, createClientWithSecret, createUserWithPassword, type TestUser, unique } from '../support/fixtures';
import { basic, formEvent, postToken } from '../support/token-calls';

const issuer = process.env.BASE_URL!;

let environmentId: string;
let publicClient: Client;
let confidential: { client: Client; secret: string };
let alice: TestUser;
let aliceCookie: string;

beforeAll(async () => {
  environmentId = unique('env_');
  publicClient = await createClient({ kind: 'app', environmentId });
  const made = await createClientWithSecret({ kind: 'app', type: 'confidential', environmentId });
  confidential = { client: made.client, secret: made.secret! };
  alice = await createUserWithPassword({ environments: [environmentId] });
  const signIn = form({ email: alice.user.email!, password: alice.password });
  aliceCookie = cookieOf(
    await signInHandler(
      apiGatewayEvent({ method: 'POST', path: '/api/auth/signin', headers: browserHeaders(), body: signIn }),
      lambdaContext,
    ),
  );
});

const push = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
  const result = await parHandler(formEvent('/api/par', fields, { headers }), lambdaContext);
  return { status: result.statusCode, body: jsonBody(result), result };
};

const authorize = (query: Record<string, string>, headers: Record<string, string> = {}) =>
  authorizeHandler(apiGatewayEvent({ path: '/api/authorize', query, headers: { Accept: 'text/html', ...headers } }), lambdaContext);

const pushedItems = () => ephemeralItems('PAR#');

/** A bad push: its status and code, a description a person can read, and no pushed request stored. */
async function expectRefused(fields: Record<string, string>, status: number, error: string, headers: Record<string, string> = {}) {
  const before = (await pushedItems()).length;
  const answer = await push(fields, headers);
  expect([answer.status, answer.body.error]).toEqual([status, error]);
  expect(answer.body.error_description).toEqual(expect.stringMatching(/^\w.{10,}/));
  expect((await pushedItems()).length).toBe(before);
  return answer;
}

function expectErrorPage(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(400);
  expect(headerOf(result, 'location')).toBeUndefined();
  expect(headerOf(result, 'content-type')).toBe('text/html; charset=utf-8');
}

async function pushedUri(client: Client, overrides: Record<string, string | undefined> = {}): Promise<string> {
  const answer = await push(authorizeQuery(client, overrides));
  expect(answer.status).toBe(201);
  return String(answer.body.request_uri);
}

describe('POST /api/par (RFC 9126 2, behaviour AUTHZ-14, AUTHZ-16)', () => {
  it('201 with a fresh request_uri and expires_in 60; stored under its digest, without the client secret (RFC 9126 2.2)', async () => {
    const fields = authorizeQuery(confidential.client, { client_id: undefined });
    const answer = await push(fields, { Authorization: basic(confidential.client.clientId, confidential.secret) });
    expect(answer.status).toBe(201);
    expect(headerOf(answer.result, 'cache-control')).toBe('no-store');
    expect(answer.body).toEqual({
      request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/),
      expires_in: 60,
    });
    const requestUri = String(answer.body.request_uri);
    const [item] = await ephemeralItems(`PAR#${createHash('sha256').update(requestUri).digest('base64url')}`);
    expect(item).toBeDefined();
    expect(JSON.stringify(item)).not.toContain(requestUri.slice(requestUriPrefix.length));
    const stored = item!.request as { clientId: string; parameters: string };
    expect(stored.clientId).toBe(confidential.client.clientId);
    expect(Object.fromEntries(new URLSearchParams(stored.parameters))).toEqual({ ...fields, client_id: confidential.client.clientId });
    expect(Number(item!.ttl) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(60);
  });

  it('takes the secret in the form too (client_secret_post), and never stores it', async () => {
    const answer = await push({ ...authorizeQuery(confidential.client), client_secret: confidential.secret });
    expect(answer.status).toBe(201);
    const items = await pushedItems();
    expect(JSON.stringify(items)).not.toContain(confidential.secret);
  });

  it('keeps fields named like an object’s own (__proto__, constructor) as plain fields, through to the authorization', async () => {
    const body = `${new URLSearchParams(authorizeQuery(publicClient, { state: 'odd-names' }))}&__proto__=x&constructor=y&toString=z`;
    const result = await parHandler(formEvent('/api/par', {}, { body }), lambdaContext);
    expect(result.statusCode).toBe(201);
    const requestUri = String(jsonBody(result).request_uri);
    const used = await authorize({ client_id: publicClient.clientId, request_uri: requestUri }, { Cookie: aliceCookie });
    expect(locationOf(used).searchParams.get('state')).toBe('odd-names');
  });

  it('a public client authenticates with its client_id alone (RFC 9126 2)', async () => {
    expect((await push(authorizeQuery(publicClient))).status).toBe(201);
  });

  it('401 invalid_client for a confidential client without credentials, or with a wrong secret (RFC 6749 5.2)', async () => {
    await expectRefused(authorizeQuery(confidential.client), 401, 'invalid_client');
    const wrong = await expectRefused(authorizeQuery(confidential.client, { client_id: undefined }), 401, 'invalid_client', {
      Authorization: basic(confidential.client.clientId, 'wrong-secret'),
    });
    expect(headerOf(wrong.result, 'www-authenticate')).toMatch(/^Basic /);
  });

  it('401 invalid_client for an unknown client', async () => {
    await expectRefused(authorizeQuery(publicClient, { client_id: 'tgc_doesnotexist' }), 401, 'invalid_client');
  });

  it('400 invalid_request for a request_uri inside the pushed request (RFC 9126 2.1, behaviour AUTHZ-15)', async () => {
    const answer = await expectRefused(
      authorizeQuery(publicClient, { request_uri: `${requestUriPrefix}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA` }),
      400,
      'invalid_request',
    );
    expect(answer.body.error_description).toContain('request_uri');
  });

  it('400 invalid_request for a client_id that is not the authenticated client (behaviour AUTHZ-14)', async () => {
    await expectRefused(authorizeQuery(confidential.client, { client_id: publicClient.clientId }), 400, 'invalid_request', {
      Authorization: basic(confidential.client.clientId, confidential.secret),
    });
  });

  it('validates as the authorization endpoint does: redirect URI, scope, PKCE, response type, resource (behaviour AUTHZ-14)', async () => {
    await expectRefused(authorizeQuery(publicClient, { redirect_uri: 'https://evil.example/callback' }), 400, 'invalid_request');
    await expectRefused(authorizeQuery(publicClient, { scope: 'openid admin' }), 400, 'invalid_scope');
    await expectRefused(authorizeQuery(publicClient, { code_challenge: undefined }), 400, 'invalid_request');
    await expectRefused(authorizeQuery(publicClient, { code_challenge_method: 'plain' }), 400, 'invalid_request');
    await expectRefused(authorizeQuery(publicClient, { response_type: 'token' }), 400, 'unsupported_response_type');
    await expectRefused(authorizeQuery(publicClient, { resource: '/relative' }), 400, 'invalid_target');
    await expectRefused(authorizeQuery(publicClient, { prompt: 'none login' }), 400, 'invalid_request');
  });

  it('holds the client to the scope catalog as it stands: a scope created a moment ago is pushed at once (behaviour ADMIN-18)', async () => {
    resetContainer(); // the first push of this container reads the catalog, the second looks up the name it lacks
    const first = await createClient({ kind: 'app', environmentId, scopes: ['openid', unique('par_a_')] });
    expect((await push(authorizeQuery(first, { scope: first.scopes.join(' ') }))).status).toBe(201);
    const second = await createClient({ kind: 'app', environmentId, scopes: ['openid', unique('par_b_')] });
    expect((await push(authorizeQuery(second, { scope: second.scopes.join(' ') }))).status).toBe(201);
  });

  it('400 unauthorized_client for a client without the authorization code grant', async () => {
    const machine = await createClient({ kind: 'app', environmentId, grantTypes: ['client_credentials'] });
    await expectRefused(authorizeQuery(machine), 400, 'unauthorized_client');
  });

  it('400 for a value past its bound, a repeated parameter, or a body that is not a form', async () => {
    await expectRefused(authorizeQuery(publicClient, { state: 's'.repeat(1025) }), 400, 'invalid_request');
    const before = (await pushedItems()).length;
    const repeated = await parHandler(
      formEvent('/api/par', {}, { body: `${new URLSearchParams(authorizeQuery(publicClient))}&scope=openid` }),
      lambdaContext,
    );
    expect([repeated.statusCode, jsonBody(repeated).error]).toEqual([400, 'invalid_request']);
    const json = await parHandler(
      apiGatewayEvent({ method: 'POST', path: '/api/par', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
      lambdaContext,
    );
    expect(json.statusCode).toBe(415);
    expect((await pushedItems()).length).toBe(before);
  });
});

describe('GET /api/authorize with request_uri (RFC 9126 4, behaviour AUTHZ-17)', () => {
  it('uses the pushed parameters only, ignoring the query’s others, through to a token', async () => {
    const { verifier, challenge } = pkcePair();
    const requestUri = await pushedUri(publicClient, { code_challenge: challenge, state: 'pushed-state' });
    const result = await authorize(
      {
        client_id: publicClient.clientId,
        request_uri: requestUri,
        state: 'query-state',
        scope: 'not-granted',
        redirect_uri: 'https://evil.example/',
      },
      { Cookie: aliceCookie },
    );
    expect(result.statusCode).toBe(303);
    const location = locationOf(result);
    expect(`${location.origin}${location.pathname}`).toBe(publicClient.redirectUris[0]);
    expect(location.searchParams.get('state')).toBe('pushed-state');
    expect(location.searchParams.get('iss')).toBe(issuer);
    const token = await postToken({
      grant_type: 'authorization_code',
      client_id: publicClient.clientId,
      code: location.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: publicClient.redirectUris[0]!,
    });
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('openid profile');
  });

  it('becomes the pending request of the sign-in step, which goes on as without PAR', async () => {
    const requestUri = await pushedUri(publicClient, { state: 'signed-in-later' });
    const page = await authorize({ client_id: publicClient.clientId, request_uri: requestUri });
    expect(page.statusCode).toBe(200);
    const requestId = hiddenField(page.body, 'request_id');
    const body = form({ request_id: requestId, email: alice.user.email!, password: alice.password });
    const result = await signInStep(
      apiGatewayEvent({ method: 'POST', path: '/api/authorize', headers: browserHeaders(), body }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(303);
    expect(locationOf(result).searchParams.get('state')).toBe('signed-in-later');
  });

  it('single use: a second GET with the same request_uri is an error page (RFC 9126 4)', async () => {
    const requestUri = await pushedUri(publicClient);
    expect((await authorize({ client_id: publicClient.clientId, request_uri: requestUri })).statusCode).toBe(200);
    expectErrorPage(await authorize({ client_id: publicClient.clientId, request_uri: requestUri }));
  });

  it('single use under a race: of two GETs at once with one request_uri, exactly one goes on', async () => {
    const requestUri = await pushedUri(publicClient);
    const results = await Promise.all([1, 2].map(() => authorize({ client_id: publicClient.clientId, request_uri: requestUri })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('an expired request_uri is an error page, even before TTL removed it', async () => {
    const requestUri = `${requestUriPrefix}${'B'.repeat(43)}`;
    const parameters = authorizeQuery(publicClient);
    await getPushedRequests().savePushedRequest(
      requestUri,
      { clientId: publicClient.clientId, parameters },
      Math.floor(Date.now() / 1000) - 1,
    );
    expectErrorPage(await authorize({ client_id: publicClient.clientId, request_uri: requestUri }));
  });

  it('an unknown or malformed request_uri, or none with client_id missing, is an error page, never a redirect', async () => {
    expectErrorPage(await authorize({ client_id: publicClient.clientId, request_uri: `${requestUriPrefix}${'C'.repeat(43)}` }));
    expectErrorPage(await authorize({ client_id: publicClient.clientId, request_uri: 'https://evil.example/request' }));
    expectErrorPage(await authorize({ request_uri: await pushedUri(publicClient) }));
  });

  it('checks the pushed parameters again as the client stands now: a redirect URI dropped since the push is an error page', async () => {
    const client = await createClient({
      kind: 'app',
      environmentId,
      redirectUris: ['https://app.example.test/a', 'https://app.example.test/b'],
    });
    const requestUri = await pushedUri(client, { redirect_uri: 'https://app.example.test/a' });
    await getClientRepository().update(client.clientId, { redirectUris: ['https://app.example.test/b'] });
    expectErrorPage(await authorize({ client_id: client.clientId, request_uri: requestUri }, { Cookie: aliceCookie }));
  });

  it('another client’s request_uri is an error page, and is used up (it has leaked)', async () => {
    const requestUri = await pushedUri(publicClient);
    const other = await createClient({ kind: 'app', environmentId });
    expectErrorPage(await authorize({ client_id: other.clientId, request_uri: requestUri }));
    expectErrorPage(await authorize({ client_id: publicClient.clientId, request_uri: requestUri }));
  });
});

describe('Requiring pushed requests (RFC 9126 5, 6; behaviour AUTHZ-18)', () => {
  it('a client with require_pushed_authorization_requests is refused a request that was not pushed, by error redirect', async () => {
    const strict = await createClient({ kind: 'app', environmentId, requirePushedAuthorizationRequests: true });
    const result = await authorize(authorizeQuery(strict), { Cookie: aliceCookie });
    expect(result.statusCode).toBe(303);
    const location = locationOf(result);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('pushed');
    expect(location.searchParams.get('code')).toBeNull();
    const pushed = await authorize({ client_id: strict.clientId, request_uri: await pushedUri(strict) }, { Cookie: aliceCookie });
    expect(locationOf(pushed).searchParams.get('code')).toEqual(expect.any(String));
  });

  describe('with REQUIRE_PUSHED_AUTHORIZATION_REQUESTS=true', () => {
    beforeAll(() => {
      process.env.REQUIRE_PUSHED_AUTHORIZATION_REQUESTS = 'true';
      resetContainer();
    });
    afterAll(() => {
      delete process.env.REQUIRE_PUSHED_AUTHORIZATION_REQUESTS;
      resetContainer();
    });

    it('refuses every request that was not pushed, and discovery says so', async () => {
      const result = await authorize(authorizeQuery(publicClient), { Cookie: aliceCookie });
      expect(locationOf(result).searchParams.get('error')).toBe('invalid_request');
      const pushed = await authorize(
        { client_id: publicClient.clientId, request_uri: await pushedUri(publicClient) },
        { Cookie: aliceCookie },
      );
      expect(locationOf(pushed).searchParams.get('code')).toEqual(expect.any(String));
      const metadata = jsonBody(await metadataHandler(apiGatewayEvent({ path: '/.well-known/oauth-authorization-server' }), lambdaContext));
      expect(metadata.require_pushed_authorization_requests).toBe(true);
    });
  });

  it('discovery names the endpoint and, by default, does not require it (RFC 9126 5)', async () => {
    const metadata = jsonBody(await metadataHandler(apiGatewayEvent({ path: '/.well-known/oauth-authorization-server' }), lambdaContext));
    expect(metadata.pushed_authorization_request_endpoint).toBe(`${issuer}/api/par`);
    expect(metadata.require_pushed_authorization_requests).toBe(false);
  });
});

describe('a DPoP proof with the push (RFC 9449 10.1, behaviour AUTHZ-19)', () => {
  const parUrl = () => `${issuer}/api/par`;
  const codeOf = async (requestUri: string, client: Client) =>
    locationOf(await authorize({ client_id: client.clientId, request_uri: requestUri }, { Cookie: aliceCookie })).searchParams.get('code')!;

  it('binds the code to the proof’s key, as dpop_jkt would', async () => {
    const key = await dpopKey();
    const answer = await push(authorizeQuery(publicClient), { DPoP: await key.proof('POST', parUrl()) });
    expect(answer.status).toBe(201);
    const code = await codeOf(String(answer.body.request_uri), publicClient);
    expect((await getTokenStore().getCode(code, Math.floor(Date.now() / 1000)))?.dpopJkt).toBe(key.jkt);
  });

  it('accepts dpop_jkt naming the proof’s key, and refuses one naming another: 400 invalid_dpop_proof, nothing stored', async () => {
    const key = await dpopKey();
    const other = await dpopKey();
    const same = await push(authorizeQuery(publicClient, { dpop_jkt: key.jkt }), { DPoP: await key.proof('POST', parUrl()) });
    expect(same.status).toBe(201);
    await expectRefused(authorizeQuery(publicClient, { dpop_jkt: other.jkt }), 400, 'invalid_dpop_proof', {
      DPoP: await key.proof('POST', parUrl()),
    });
  });

  it('refuses a proof for another URL or method: 400 invalid_dpop_proof, nothing stored', async () => {
    const key = await dpopKey();
    await expectRefused(authorizeQuery(publicClient), 400, 'invalid_dpop_proof', { DPoP: await key.proof('POST', `${issuer}/api/token`) });
    await expectRefused(authorizeQuery(publicClient), 400, 'invalid_dpop_proof', { DPoP: await key.proof('GET', parUrl()) });
  });
});
