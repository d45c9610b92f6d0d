/**
 * Every OAuth flow against the local server with an independent, spec-strict client
 * library (oauth4webapi), set up through the admin API as an operator would, with the
 * sign-in form driven as a browser drives it, and tokens validated at a resource server
 * with jose (through this project's resource-server helper). Behaviour AUTHZ-6, CODE-3, INTRO-3, RS-1.
 */
import * as oauth from 'oauth4webapi';
import type { LocalApp } from '../../lambdas/local/app';
import { BearerTokenError, createAccessTokenVerifier } from '../../lambdas/resource-server';
import { hiddenField } from '../support/authorization';
import { startE2eApp } from '../support/e2e-app';
import { adminApi } from '../support/local-http';
import { createUserOverHttp } from '../support/fixtures';

const resource = 'https://mcp.example.test/mcp';
const redirectUri = 'http://127.0.0.1:9999/callback';
const insecure = { [oauth.allowInsecureRequests]: true } as const; // the local issuer is http://localhost

let app: LocalApp;
let as: oauth.AuthorizationServer;
let adminToken: string;
let publicClient: oauth.Client;
let user: { email: string; password: string; id: string };

const admin = adminApi(
  () => app.url,
  () => adminToken,
);

beforeAll(async () => {
  ({ app, as, adminToken } = await startE2eApp({ name: 'e2e' }));

  user = await createUserOverHttp(app.url, adminToken, { name: 'Ada', environments: [app.bootstrap.environments.defaultId] });
  const client = await admin('POST', '/api/admin/clients', {
    type: 'public',
    name: 'E2E app',
    environment_id: app.bootstrap.environments.defaultId,
    redirect_uris: [redirectUri],
    scopes: ['openid', 'profile', 'email'],
  });
  publicClient = { client_id: String(client.client_id) };
});

afterAll(async () => {
  await app.close();
});

/** Authorization code + PKCE + resource, signing in through the HTML form; returns the token response. */
async function authorize(scope = 'openid profile email', target: string | null = resource) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: publicClient.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope,
    state,
    nonce,
    ...(target ? { resource: target } : {}),
  }).toString();
  const page = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
  expect(page.status).toBe(200);
  const signIn = await fetch(`${app.url}/api/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html' },
    body: new URLSearchParams({ request_id: hiddenField(await page.text(), 'request_id'), email: user.email, password: user.password }),
  });
  expect(signIn.status).toBe(303);
  const params = oauth.validateAuthResponse(as, publicClient, new URL(signIn.headers.get('location')!), state);
  const response = await oauth.authorizationCodeGrantRequest(as, publicClient, oauth.None(), params, redirectUri, verifier, {
    ...(target ? { additionalParameters: { resource: target } } : {}),
    ...insecure,
  });
  return oauth.processAuthorizationCodeResponse(as, publicClient, response, {
    expectedNonce: nonce,
    requireIdToken: scope.includes('openid'),
  });
}

const resourceServer = () => createAccessTokenVerifier({ issuer: app.url, jwksUri: as.jwks_uri!, resource });

describe('OAuth flows with oauth4webapi against npm start', () => {
  it('discovery (RFC 8414) names this issuer, S256 and resource indicators', () => {
    expect(as.issuer).toBe(app.url);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.resource_parameter_supported).toBe(true);
  });

  it('code + PKCE with resource: the access token is bound to the resource (aud), carries the user, and a resource server accepts it', async () => {
    const tokens = await authorize();
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const claims = oauth.getValidatedIdTokenClaims(tokens)!;
    expect(claims.sub).toBe(user.id);
    const verified = await resourceServer()(`Bearer ${tokens.access_token}`);
    expect(verified).toMatchObject({ iss: app.url, aud: resource, sub: user.id, client_id: publicClient.client_id });
    await expect(
      createAccessTokenVerifier({ issuer: app.url, jwksUri: as.jwks_uri!, resource: 'https://other.example.test/' })(tokens.access_token),
    ).rejects.toBeInstanceOf(BearerTokenError);
  });

  it('refresh rotation keeps the audience; reusing a rotated refresh token fails and revokes the family', async () => {
    const first = await authorize();
    const rotated = await oauth.processRefreshTokenResponse(
      as,
      publicClient,
      await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), first.refresh_token!, insecure),
    );
    expect((await resourceServer()(rotated.access_token)).aud).toBe(resource);
    expect(rotated.refresh_token).not.toBe(first.refresh_token);

    const reuse = await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), first.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, publicClient, reuse)).rejects.toMatchObject({ error: 'invalid_grant' });
    const afterReuse = await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), rotated.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, publicClient, afterReuse)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('introspection (RFC 7662, behaviour INTRO-3) is active for the bound resource and inactive for another or after revocation', async () => {
    const tokens = await authorize();
    // A resource server: a confidential client an administrator allowed to introspect every token.
    const resourceServer = await admin('POST', '/api/admin/clients', {
      type: 'confidential',
      name: 'MCP server',
      environment_id: app.bootstrap.environments.defaultId,
      introspect_all: true,
    });
    const clientSecret = String(resourceServer.client_secret);
    const introspector = { client_id: String(resourceServer.client_id) };
    const introspect = async (token: string, forResource: string) =>
      oauth.processIntrospectionResponse(
        as,
        introspector,
        await oauth.introspectionRequest(as, introspector, oauth.ClientSecretBasic(clientSecret), token, {
          additionalParameters: { resource: forResource },
          ...insecure,
        }),
      );
    expect(await introspect(tokens.access_token, resource)).toMatchObject({
      active: true,
      sub: user.id,
      client_id: publicClient.client_id,
    });
    expect((await introspect(tokens.access_token, 'https://other.example.test/')).active).toBe(false);

    const revoked = await oauth.revocationRequest(as, publicClient, oauth.None(), tokens.refresh_token!, insecure);
    await oauth.processRevocationResponse(revoked);
    expect((await introspect(tokens.access_token, resource)).active).toBe(false);
  });

  it('client_credentials (behaviour CC-2): a token with no sub, for the admin client', async () => {
    const { clientId, clientSecret } = app.bootstrap.adminClient;
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: clientId },
      oauth.ClientSecretPost(clientSecret),
      new URLSearchParams({ scope: 'admin', resource }),
      insecure,
    );
    const tokens = await oauth.processClientCredentialsResponse(as, { client_id: clientId }, response);
    const verified = await resourceServer()(tokens.access_token);
    expect(verified.sub).toBeUndefined();
    expect(verified.client_id).toBe(clientId);
  });

  it('userinfo (OIDC Core 5.3) answers the claims the scopes granted, and refuses a token bound to another resource', async () => {
    const own = await authorize('openid profile', null);
    const info = await oauth.processUserInfoResponse(
      as,
      publicClient,
      oauth.getValidatedIdTokenClaims(own)!.sub,
      await oauth.userInfoRequest(as, publicClient, own.access_token, insecure),
    );
    expect(info).toMatchObject({ sub: user.id, name: 'Ada' });
    expect(info).not.toHaveProperty('email');

    const bound = await authorize('openid profile');
    const refused = await fetch(as.userinfo_endpoint!, { headers: { authorization: `Bearer ${bound.access_token}` } });
    expect(refused.status).toBe(401);
  });

  it("a client's refresh grace window (behaviour REFRESH-7), set through the admin API: a lost reply's retry gets the same successor", async () => {
    const path = `/api/admin/clients/${publicClient.client_id}`;
    expect((await admin('PATCH', path, { refresh_grace_seconds: 30 })).refresh_grace_seconds).toBe(30);
    try {
      const first = await authorize();
      const refreshOnce = async (token: string) =>
        oauth.processRefreshTokenResponse(
          as,
          publicClient,
          await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), token, insecure),
        );
      const lost = await refreshOnce(first.refresh_token!);
      const retried = await refreshOnce(first.refresh_token!);
      expect(retried.refresh_token).toBe(lost.refresh_token);
      expect((await resourceServer()(retried.access_token)).aud).toBe(resource);
      expect((await refreshOnce(retried.refresh_token!)).refresh_token).not.toBe(retried.refresh_token);
      // Its successor used, the old token is reuse again: the family is revoked.
      const reuse = await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), first.refresh_token!, insecure);
      await expect(oauth.processRefreshTokenResponse(as, publicClient, reuse)).rejects.toMatchObject({ error: 'invalid_grant' });
    } finally {
      await admin('PATCH', path, { refresh_grace_seconds: null });
    }
  });
});
