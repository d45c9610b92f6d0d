/**
 * DPoP (RFC 9449) end to end against the local server with oauth4webapi's own DPoP support: the
 * authorization code with PKCE and `dpop_jkt`, the public client's bound refresh, client_credentials,
 * and userinfo with the DPoP scheme. Behaviour TOKEN-7, TOKEN-8, CODE-5, REFRESH-8, BEARER-5, DISC-7.
 */
import * as oauth from 'oauth4webapi';
import { randomUUID } from 'node:crypto';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { hiddenField } from '../support/authorization';
import { startE2eApp } from '../support/e2e-app';
import { adminApi } from '../support/local-http';
import { createUserOverHttp } from '../support/fixtures';

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
    name: 'E2E DPoP app',
    environment_id: app.bootstrap.environments.defaultId,
    redirect_uris: [redirectUri],
    scopes: ['openid', 'profile'],
  });
  publicClient = { client_id: String(client.client_id) };
});

afterAll(async () => {
  await app.close();
});

/** Code + PKCE + `dpop_jkt`, signing in through the HTML form; the token request carries the proof. */
async function authorize(DPoP: oauth.DPoPHandle) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: publicClient.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    scope: 'openid profile',
    state,
    dpop_jkt: await DPoP.calculateThumbprint(),
  }).toString();
  const page = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
  const signIn = await fetch(`${app.url}/api/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.url, accept: 'text/html' },
    body: new URLSearchParams({ request_id: hiddenField(await page.text(), 'request_id'), email: user.email, password: user.password }),
  });
  expect(signIn.status).toBe(303);
  return { params: oauth.validateAuthResponse(as, publicClient, new URL(signIn.headers.get('location')!), state), verifier };
}

const codeGrant = async (params: URLSearchParams, verifier: string, DPoP?: oauth.DPoPHandle) =>
  oauth.authorizationCodeGrantRequest(as, publicClient, oauth.None(), params, redirectUri, verifier, {
    ...(DPoP ? { DPoP } : {}),
    ...insecure,
  });

describe('DPoP with oauth4webapi against npm start (RFC 9449)', () => {
  it('discovery lists the proof algorithms (behaviour DISC-7)', () => {
    expect(as.dpop_signing_alg_values_supported).toEqual(['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA']);
  });

  it('code + PKCE + dpop_jkt: a DPoP token; userinfo with the DPoP scheme; the bound refresh rotates with the key only', async () => {
    const DPoP = oauth.DPoP(publicClient, await oauth.generateKeyPair('ES256'));
    const { params, verifier } = await authorize(DPoP);

    // Behaviour CODE-5: the code is redeemed only with the key of dpop_jkt.
    const otherKey = oauth.DPoP(publicClient, await oauth.generateKeyPair('ES256'));
    await expect(
      oauth.processAuthorizationCodeResponse(as, publicClient, await codeGrant(params, verifier, otherKey)),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const tokens = await oauth.processAuthorizationCodeResponse(as, publicClient, await codeGrant(params, verifier, DPoP));
    expect(tokens.token_type).toBe('dpop');

    const info = await oauth.processUserInfoResponse(
      as,
      publicClient,
      oauth.getValidatedIdTokenClaims(tokens)!.sub,
      await oauth.userInfoRequest(as, publicClient, tokens.access_token, { DPoP, ...insecure }),
    );
    expect(info).toMatchObject({ sub: user.id, name: 'Ada' });

    // Behaviour REFRESH-8: a public client's refresh token needs the same key.
    const withoutKey = await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), tokens.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, publicClient, withoutKey)).rejects.toMatchObject({ error: 'invalid_grant' });
    const rotated = await oauth.processRefreshTokenResponse(
      as,
      publicClient,
      await oauth.refreshTokenGrantRequest(as, publicClient, oauth.None(), tokens.refresh_token!, { DPoP, ...insecure }),
    );
    expect(rotated.token_type).toBe('dpop');
  });

  it('client_credentials with a proof: a DPoP token (behaviour TOKEN-8)', async () => {
    const { clientId, clientSecret } = app.bootstrap.adminClient;
    const DPoP = oauth.DPoP({}, await oauth.generateKeyPair('PS256'));
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      { client_id: clientId },
      oauth.ClientSecretBasic(clientSecret),
      new URLSearchParams({ scope: 'admin' }),
      { DPoP, ...insecure },
    );
    const tokens = await oauth.processClientCredentialsResponse(as, { client_id: clientId }, response);
    expect(tokens.token_type).toBe('dpop');
  });
});

describe('server nonces with oauth4webapi (DPOP_NONCE_REQUIRED, behaviour TOKEN-10, RFC 9449 8)', () => {
  let nonceApp: LocalApp;
  let nonceAs: oauth.AuthorizationServer;
  beforeAll(async () => {
    nonceApp = await startLocalApp({
      port: 0,
      dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
      tablePrefix: `e2e-${randomUUID().slice(0, 8)}-`,
      env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL, DPOP_NONCE_REQUIRED: 'true' },
    });
    const issuer = new URL(nonceApp.url);
    nonceAs = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });
  afterAll(async () => {
    await nonceApp.close();
  });

  it('the first request is refused with use_dpop_nonce; the library keeps the nonce and the retry gets a DPoP token', async () => {
    const { clientId, clientSecret } = nonceApp.bootstrap.adminClient;
    const client = { client_id: clientId };
    const DPoP = oauth.DPoP({}, await oauth.generateKeyPair('ES256'));
    const request = async () =>
      oauth.processClientCredentialsResponse(
        nonceAs,
        client,
        await oauth.clientCredentialsGrantRequest(
          nonceAs,
          client,
          oauth.ClientSecretBasic(clientSecret),
          new URLSearchParams({ scope: 'admin' }),
          {
            DPoP,
            ...insecure,
          },
        ),
      );
    const refusal = await request().catch((error: unknown) => error);
    expect(oauth.isDPoPNonceError(refusal)).toBe(true);
    const tokens = await request();
    expect(tokens.token_type).toBe('dpop');
  });
});
