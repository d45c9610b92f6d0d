/**
 * private_key_jwt client authentication (RFC 7523 2.2, behaviour TOKEN-6) at the token,
 * introspection and revocation endpoints: oauth4webapi's PrivateKeyJwt drives the handlers, and
 * every bad assertion is the same 401 invalid_client, with nothing issued and its jti not used up.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Client } from '../../lambdas/core/model';
import { createClient, createEnvironment, createTokenUser, issueCode, redirectUri } from '../support/fixtures';
import {
  assertionFields,
  authorizationServer,
  type ClientKey,
  clientAssertion,
  clientKey,
  jwtBearer,
  toHandlers,
} from '../support/private-key-jwt';
import { activityOf, basic, issuer, postToken, storedFor, verifyAsResourceServer } from '../support/token-calls';

let environmentId: string;
let key: ClientKey;
/** A client_credentials client holding `key`'s public JWK. */
let service: Client;

const keyedClient = (options: Partial<Client> = {}) =>
  createClient({
    environmentId,
    type: 'confidential',
    grantTypes: ['client_credentials'],
    scopes: ['read'],
    jwks: { keys: [key.jwk] },
    test: false,
    ...options,
  });

beforeAll(async () => {
  environmentId = await createEnvironment();
  key = await clientKey();
  service = await keyedClient();
});

const as = () => authorizationServer();
const auth = (k: ClientKey = key) => oauth.PrivateKeyJwt({ key: k.privateKey, kid: k.kid });

describe('oauth4webapi PrivateKeyJwt end to end (RFC 7523 2.2, behaviour TOKEN-6)', () => {
  it('client_credentials: a token for the client, no sub', async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      as(),
      { client_id: service.clientId },
      auth(),
      new URLSearchParams({ scope: 'read' }),
      toHandlers,
    );
    const granted = await oauth.processClientCredentialsResponse(as(), { client_id: service.clientId }, response);
    const claims = await verifyAsResourceServer(granted.access_token, issuer());
    expect(claims).toMatchObject({ client_id: service.clientId, scope: 'read' });
    expect(claims).not.toHaveProperty('sub');
    const [row] = await activityOf(service.clientId);
    expect(row).toMatchObject({ requestType: 'client_credentials', success: true });
  });

  it('authorization code, then introspection and revocation, each authenticated with an assertion', async () => {
    const user = await createTokenUser([environmentId]);
    const app = await keyedClient({
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [redirectUri],
      scopes: ['openid', 'read'],
    });
    const client = { client_id: app.clientId };
    const code = await issueCode(app, user, { scopes: ['openid', 'read'] });
    const callback = oauth.validateAuthResponse(as(), client, new URLSearchParams({ code: code.code }), oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(as(), client, auth(), callback, redirectUri, code.verifier, toHandlers);
    const tokens = await oauth.processAuthorizationCodeResponse(as(), client, response, {
      expectedNonce: oauth.expectNoNonce,
      requireIdToken: false,
    });
    expect(tokens.refresh_token).toBeDefined();

    const introspection = await oauth.introspectionRequest(as(), client, auth(), tokens.access_token, toHandlers);
    expect(await oauth.processIntrospectionResponse(as(), client, introspection)).toMatchObject({
      active: true,
      client_id: app.clientId,
      sub: user.id,
    });

    const revocation = await oauth.revocationRequest(as(), client, auth(), tokens.refresh_token!, toHandlers);
    await oauth.processRevocationResponse(revocation);
    const refreshed = await postToken({
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      ...assertionFields(await clientAssertion(app.clientId, key), app.clientId),
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('accepts the token endpoint URL as aud, and the endpoint called at introspection; a client_id in the form is optional (RFC 7521 4.2)', async () => {
    const viaTokenUrl = await clientAssertion(service.clientId, key, { aud: `${issuer()}/api/token` });
    expect((await postToken({ grant_type: 'client_credentials', ...assertionFields(viaTokenUrl) })).status).toBe(200);
    const tokenValue = String(
      (await postToken({ grant_type: 'client_credentials', ...assertionFields(await clientAssertion(service.clientId, key)) })).body
        .access_token,
    );
    const atIntrospection = await clientAssertion(service.clientId, key, { aud: `${issuer()}/api/token/introspect` });
    const response = await oauth.introspectionRequest(as(), { client_id: service.clientId }, oauth.None(), tokenValue, {
      ...toHandlers,
      additionalParameters: assertionFields(atIntrospection),
    });
    expect(((await response.json()) as { active: boolean }).active).toBe(true);
  });

  it('pushes an authorization request with an assertion (RFC 9126 2: the PAR URL is an accepted aud too)', async () => {
    const app = await keyedClient({ grantTypes: ['authorization_code'], redirectUris: [redirectUri], scopes: ['openid', 'read'] });
    const client = { client_id: app.clientId };
    const params = new URLSearchParams({
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid read',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: 'S256',
    });
    const pushed = await oauth.pushedAuthorizationRequest(as(), client, auth(), params, toHandlers);
    const { request_uri: requestUri } = await oauth.processPushedAuthorizationResponse(as(), client, pushed);
    expect(requestUri).toMatch(/^urn:ietf:params:oauth:request_uri:/);

    const atPar = await clientAssertion(app.clientId, key, { aud: `${issuer()}/api/par` });
    const withAssertion = new URLSearchParams({ ...Object.fromEntries(params), ...assertionFields(atPar) });
    const again = await oauth.pushedAuthorizationRequest(as(), client, oauth.None(), withAssertion, toHandlers);
    expect(again.status).toBe(201);
  });

  it('pins the registered token_endpoint_auth_signing_alg: a key of another algorithm is refused', async () => {
    const rsa = await clientKey('RS256');
    const pinned = await keyedClient({ jwks: { keys: [key.jwk, { ...rsa.jwk, alg: undefined }] }, tokenEndpointAuthSigningAlg: 'ES256' });
    const byRsa = await postToken({
      grant_type: 'client_credentials',
      ...assertionFields(await clientAssertion(pinned.clientId, rsa), pinned.clientId),
    });
    expect(byRsa.status).toBe(401);
    const byEs = await postToken({
      grant_type: 'client_credentials',
      ...assertionFields(await clientAssertion(pinned.clientId, key), pinned.clientId),
    });
    expect(byEs.status).toBe(200);
  });
});

describe('every bad assertion is 401 invalid_client, nothing issued, its jti not used up (behaviour TOKEN-6)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: [string, (client: Client, jti: string) => Promise<Record<string, string>>][] = [
    [
      'wrong aud (RFC 7523 3, point 3)',
      async (c, jti) => assertionFields(await clientAssertion(c.clientId, key, { jti, aud: 'https://elsewhere.example' })),
    ],
    [
      'expired (RFC 7523 3, point 4)',
      async (c, jti) => assertionFields(await clientAssertion(c.clientId, key, { jti, iat: now() - 400, exp: now() - 100 })),
    ],
    ['lives longer than 300 s', async (c, jti) => assertionFields(await clientAssertion(c.clientId, key, { jti, exp: now() + 3600 }))],
    [
      'signed by a key the client did not register, under its kid',
      async (c, jti) => assertionFields(await clientAssertion(c.clientId, { ...(await clientKey()), kid: key.kid }, { jti })),
    ],
    ['an unknown kid', async (c, jti) => assertionFields(await clientAssertion(c.clientId, await clientKey(), { jti }))],
    [
      'iss differs from sub (RFC 7523 3, point 2)',
      async (c, jti) => assertionFields(await clientAssertion(c.clientId, key, { jti, iss: 'someone-else' })),
    ],
    [
      'sub of another client',
      async (c, jti) => assertionFields(await clientAssertion(c.clientId, key, { jti, sub: service.clientId }), c.clientId),
    ],
    [
      'alg none',
      async (c, jti) => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
        return assertionFields(
          `${part({ alg: 'none' })}.${part({ iss: c.clientId, sub: c.clientId, aud: issuer(), exp: now() + 60, jti })}.`,
          c.clientId,
        );
      },
    ],
    [
      'HS256 with the public key as the secret',
      async (c, jti) =>
        assertionFields(
          await new SignJWT({ iss: c.clientId, sub: c.clientId, aud: issuer(), exp: now() + 60, jti })
            .setProtectedHeader({ alg: 'HS256', kid: key.kid })
            .sign(new TextEncoder().encode(JSON.stringify(key.jwk))),
          c.clientId,
        ),
    ],
    [
      'another client_assertion_type',
      async (c, jti) => ({
        ...assertionFields(await clientAssertion(c.clientId, key, { jti }), c.clientId),
        client_assertion_type: 'urn:example:other',
      }),
    ],
    ['not a JWT', async (c) => assertionFields('not-a-jwt', c.clientId)],
  ];

  it.each(cases)('%s', async (...[, make]) => {
    const client = await keyedClient();
    const jti = randomUUID();
    const refused = await postToken({ grant_type: 'client_credentials', ...(await make(client, jti)) });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed.' });
    expect(await storedFor(client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    // The refused assertion's jti was not recorded: a good assertion with it still passes.
    const good = await postToken({
      grant_type: 'client_credentials',
      ...assertionFields(await clientAssertion(client.clientId, key, { jti })),
    });
    expect(good.status).toBe(200);
  });

  it('a replayed jti (RFC 7523 3, point 7): the second use is refused, the reason in the activity row', async () => {
    const client = await keyedClient();
    const assertion = await clientAssertion(client.clientId, key);
    expect((await postToken({ grant_type: 'client_credentials', ...assertionFields(assertion) })).status).toBe(200);
    const replay = await postToken({ grant_type: 'client_credentials', ...assertionFields(assertion) });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('invalid_client');
    expect(await storedFor(client.clientId)).toMatchObject({ tokenRecords: 1 });
    const rows = await activityOf(client.clientId);
    expect(rows.find((row) => !row.success)?.reason).toMatch(/^invalid_client: client assertion refused \(replayed/);
  });

  it('a client with a secret or a public client cannot use an assertion, and a client with keys has no secret to use', async () => {
    const secretClient = await createClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], secretHash: 'x' });
    const withAssertion = await postToken({
      grant_type: 'client_credentials',
      ...assertionFields(await clientAssertion(secretClient.clientId, key)),
    });
    expect(withAssertion.status).toBe(401);
    // A public client is of the other client type (behaviour TOKEN-3), whatever keys it might hold.
    const publicClient = await createClient({ environmentId, kind: 'app', jwks: { keys: [key.jwk] } });
    const fromPublic = await postToken({
      grant_type: 'authorization_code',
      code: 'x',
      code_verifier: 'v'.repeat(43),
      redirect_uri: redirectUri,
      ...assertionFields(await clientAssertion(publicClient.clientId, key), publicClient.clientId),
    });
    expect(fromPublic.status).toBe(401);
    expect((await activityOf(publicClient.clientId))[0]?.reason).toBe('invalid_client: a public client presented an assertion');
    const withSecret = await postToken(
      { grant_type: 'client_credentials' },
      { headers: { Authorization: basic(service.clientId, 'guess') } },
    );
    expect(withSecret.status).toBe(401);
  });

  it('an assertion together with a secret is invalid_request: one method per request (RFC 6749 2.3)', async () => {
    const both = await postToken({
      grant_type: 'client_credentials',
      client_secret: 'x',
      ...assertionFields(await clientAssertion(service.clientId, key), service.clientId),
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('invalid_request');
  });

  it('a jwks_uri that cannot be fetched (here a private address, outside local mode) is invalid_client', async () => {
    const remote = await keyedClient({ jwks: undefined, jwksUri: 'https://127.0.0.1:9/jwks.json' });
    const refused = await postToken({ grant_type: 'client_credentials', ...assertionFields(await clientAssertion(remote.clientId, key)) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_client');
    expect(await storedFor(remote.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
  });

  it('the assertion fields are bounded (behaviour LIMIT-2): an oversized one is invalid_request', async () => {
    const huge = await postToken({
      grant_type: 'client_credentials',
      client_id: service.clientId,
      client_assertion_type: jwtBearer,
      client_assertion: 'a'.repeat(9000),
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe('invalid_request');
  });
});
