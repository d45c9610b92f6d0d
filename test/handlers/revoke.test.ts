/**
 * POST /api/token/revoke (RFC 7009) for refresh tokens: revoking one ends its family;
 * public clients authenticate with client_id alone (2.1); unknown tokens answer 200 (2.2).
 */
import { handler as revoke } from '../../lambdas/handlers/revoke';
import type { Client, User } from '../../lambdas/core/model';
import { headerOf, jsonBody, lambdaContext } from '../support/events';
import { basic, formEvent, introspectWith, postToken, refresh, signedIn } from '../support/token-calls';
import { createTokenClient, issueCode, redirectUri, type TestClient, setUpTokenFamily } from '../support/fixtures';

let environmentId: string;
let user: User;
let app: Client;
let resourceServer: TestClient;

beforeAll(async () => {
  ({ environmentId, user, app, resourceServer } = await setUpTokenFamily());
});

const revokeAs = (fields: Record<string, string>, headers?: Record<string, string>) =>
  revoke(formEvent('/api/token/revoke', fields, { headers }), lambdaContext);

describe('RFC 7009 2.1: revoking a refresh token', () => {
  it('a public client by client_id: 200, the family ends (refresh fails, access token inactive)', async () => {
    const tokens = await signedIn(app, user);
    const result = await revokeAs({ token: String(tokens.refresh_token), token_type_hint: 'refresh_token', client_id: app.clientId });
    expect(result.statusCode).toBe(200);
    expect(headerOf(result, 'cache-control')).toBe('no-store');
    expect((await refresh(app, String(tokens.refresh_token))).body.error).toBe('invalid_grant');
    expect((await introspectWith(resourceServer, String(tokens.access_token))).body).toEqual({ active: false });
  });

  it('a confidential client with client_secret_basic', async () => {
    const web = await createTokenClient({ environmentId, type: 'confidential' });
    const auth = { Authorization: basic(web.client.clientId, web.secret!) };
    const code = await issueCode(web.client, user);
    const tokens = await postToken(
      { grant_type: 'authorization_code', code: code.code, code_verifier: code.verifier, redirect_uri: redirectUri },
      { headers: auth },
    );
    expect(tokens.status).toBe(200);
    expect((await revokeAs({ token: String(tokens.body.refresh_token) }, auth)).statusCode).toBe(200);
    const again = await postToken({ grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token) }, { headers: auth });
    expect(again.body.error).toBe('invalid_grant');
  });

  it('an unknown, or already revoked, token: 200 all the same (RFC 7009 2.2)', async () => {
    expect((await revokeAs({ token: 'dW5rbm93bi10b2tlbi12YWx1ZS14eHh4eHh4eHh4eHh4eHg', client_id: app.clientId })).statusCode).toBe(200);
    const tokens = await signedIn(app, user);
    expect((await revokeAs({ token: String(tokens.refresh_token), client_id: app.clientId })).statusCode).toBe(200);
    expect((await revokeAs({ token: String(tokens.refresh_token), client_id: app.clientId })).statusCode).toBe(200);
  });

  it('a token of another client: refused with invalid_grant, and the token keeps working', async () => {
    const { client: other } = await createTokenClient({ environmentId });
    const tokens = await signedIn(app, user);
    const result = await revokeAs({ token: String(tokens.refresh_token), client_id: other.clientId });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_grant');
    expect((await refresh(app, String(tokens.refresh_token))).status).toBe(200);
  });
});

describe('RFC 7009 2.2.1 and RFC 6749 5.2 refusals', () => {
  it('unsupported_token_type for an access token (only refresh tokens are revocable)', async () => {
    const tokens = await signedIn(app, user);
    const result = await revokeAs({ token: String(tokens.access_token), client_id: app.clientId });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('unsupported_token_type');
  });

  it('invalid_client 401 with a Basic challenge for a wrong secret', async () => {
    const result = await revokeAs({ token: 'abc' }, { Authorization: basic(resourceServer.client.clientId, 'wrong') });
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_client');
    expect(headerOf(result, 'www-authenticate')).toMatch(/^Basic /);
  });

  it('invalid_client without any client identification', async () => {
    const result = await revokeAs({ token: 'abc' });
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_client');
  });

  it('invalid_request without a token', async () => {
    const result = await revokeAs({ client_id: app.clientId });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
  });
});
