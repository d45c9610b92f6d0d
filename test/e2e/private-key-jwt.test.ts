/**
 * private_key_jwt against the local server (behaviour TOKEN-6, ADMIN-19, DISC-2): a client an
 * operator registers through the admin API with a jwks_uri (served here on loopback, which the
 * local server allows), driven by oauth4webapi from discovery to a token, introspection and
 * revocation (refresh tokens are revoked through the handlers in test/handlers/token-private-key-jwt.test.ts); a jwks_uri nobody answers is invalid_client.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { SignJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import type { LocalApp } from '../../lambdas/local/app';
import { startE2eApp } from '../support/e2e-app';
import { adminApi, call, insecure } from '../support/local-http';
import { type ClientKey, clientKey } from '../support/private-key-jwt';

let app: LocalApp;
let as: oauth.AuthorizationServer;
let adminToken: string;
let keys: Server;
let jwksUri: string;
let key: ClientKey;

const admin = adminApi(
  () => app.url,
  () => adminToken,
);

beforeAll(async () => {
  key = await clientKey('ES256');
  keys = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
    response.end(JSON.stringify({ keys: [key.jwk] }));
  });
  await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
  jwksUri = `http://127.0.0.1:${(keys.address() as { port: number }).port}/jwks.json`;

  ({ app, as, adminToken } = await startE2eApp({ name: 'e2e' }));
  await admin('POST', '/api/admin/scopes', { name: 'read', description: 'read' });
});

afterAll(async () => {
  await app.close();
  keys.closeAllConnections();
  keys.close();
});

const register = async (keysField: Record<string, unknown>) =>
  String(
    (
      await admin('POST', '/api/admin/clients', {
        type: 'confidential',
        name: 'Workload',
        environment_id: app.bootstrap.environments.defaultId,
        scopes: ['read'],
        ...keysField,
      })
    ).client_id,
  );

describe('private_key_jwt end to end (oauth4webapi against npm start)', () => {
  it('discovery lists the method and its signing algorithms (behaviour DISC-2, TOKEN-6)', () => {
    expect(as.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(as.introspection_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256', 'EdDSA']));
    expect(as.token_endpoint_auth_signing_alg_values_supported).not.toContain('HS256');
  });

  it('a client registered with a jwks_uri gets a token, introspects it and is authenticated at revocation, each time with a fresh assertion', async () => {
    const client = { client_id: await register({ jwks_uri: jwksUri }) };
    const auth = oauth.PrivateKeyJwt({ key: key.privateKey, kid: key.kid });
    const response = await oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams({ scope: 'read' }), insecure);
    const { access_token: accessToken } = await oauth.processClientCredentialsResponse(as, client, response);
    const introspection = await oauth.introspectionRequest(as, client, auth, accessToken, insecure);
    expect(await oauth.processIntrospectionResponse(as, client, introspection)).toMatchObject({
      active: true,
      client_id: client.client_id,
    });
    // Authenticated, then refused for what it asks: this server revokes refresh tokens only (behaviour REVOKE-1).
    const revocation = await oauth.revocationRequest(as, client, auth, accessToken, insecure);
    expect(revocation.status).toBe(400);
    expect(((await revocation.json()) as { error: string }).error).toBe('unsupported_token_type');
  });

  it('a jwks_uri nobody answers: 401 invalid_client', async () => {
    const client = { client_id: await register({ jwks_uri: 'http://127.0.0.1:9/jwks.json' }) };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }),
      new URLSearchParams({ scope: 'read' }),
      insecure,
    );
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('a client registered with a stored jwks authenticates the same; a replayed assertion does not (RFC 7523 3)', async () => {
    const clientId = await register({ jwks: { keys: [key.jwk] } });
    const form: Record<string, string> = { grant_type: 'client_credentials', scope: 'read', client_id: clientId };
    const now = Math.floor(Date.now() / 1000);
    form.client_assertion_type = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
    form.client_assertion = await new SignJWT({ iss: clientId, sub: clientId, aud: as.issuer, iat: now, exp: now + 60, jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid: key.kid })
      .sign(key.privateKey);
    expect((await call(app.url, 'POST', '/api/token', { form })).status).toBe(200);
    const replay = await call(app.url, 'POST', '/api/token', { form });
    expect(replay.status).toBe(401);
    expect(replay.json.error).toBe('invalid_client');
  });
});
