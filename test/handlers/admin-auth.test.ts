/**
 * Who may call /api/admin/* (behaviour ADMIN-1, ADMIN-2): an admin API client's token or an admin user's
 * token, both with the `admin` scope. Every other valid token gets one identical 403, so
 * admin configuration cannot be probed; no or a bad token is 401 invalid_token.
 */
import { mintAccessToken } from '../../lambdas/core/tokens';
import { handler as postClient } from '../../lambdas/handlers/admin/clients-create';
import { handler as deleteClient } from '../../lambdas/handlers/admin/clients-delete';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { getContainer } from '../../lambdas/wiring/container';
import { getSigner } from '../../lambdas/wiring/signing';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { jsonBody, headerOf } from '../support/events';
import { adminClientToken, adminUserToken, createClient, createEnvironment, createUser, issueAccessToken } from '../support/fixtures';

beforeAll(() => ensureScopes('openid', 'admin'));

describe('admin API callers', () => {
  it('accepts an admin API client token with the admin scope', async () => {
    const { token } = await adminClientToken();
    expect((await callAdmin(listUsers, { token })).statusCode).toBe(200);
  });

  it('accepts an admin user token with the admin scope', async () => {
    const { token } = await adminUserToken();
    expect((await callAdmin(listUsers, { token })).statusCode).toBe(200);
  });

  it("answers an admin user's token whose refresh-token family is gone with 401 invalid_token (behaviour BEARER-1)", async () => {
    const { user, client } = await adminUserToken();
    const { token } = await issueAccessToken({
      clientId: client.clientId,
      sub: user.id,
      scopes: ['openid', 'admin'],
      familyId: 'fam_gone',
    });
    const result = await callAdmin(listUsers, { token });
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_token');
  });

  it('refuses a plain user, a non-admin client and an admin user without the admin scope with the identical 403', async () => {
    const client = await createClient({ scopes: ['openid', 'admin'] });
    const plainUser = await createUser();
    const adminUser = await createUser({ admin: true });
    const tokens = [
      (await issueAccessToken({ clientId: client.clientId, sub: plainUser.id, scopes: ['openid', 'admin'] })).token,
      (await issueAccessToken({ clientId: client.clientId, scopes: ['admin'] })).token,
      (await issueAccessToken({ clientId: client.clientId, sub: adminUser.id, scopes: ['openid'] })).token,
    ];
    const results = await Promise.all(tokens.map((token) => callAdmin(listUsers, { token })));
    for (const result of results) {
      expect(result.statusCode).toBe(403);
      expect(result.body).toBe(results[0]!.body);
    }
    expect(jsonBody(results[0]!)).toEqual({ error: 'access_denied', error_description: 'This token may not use the admin API.' });
  });

  it('refuses an admin client token without the admin scope with the same 403', async () => {
    const { client } = await adminClientToken();
    const { token } = await issueAccessToken({ clientId: client.clientId, scopes: [] });
    const result = await callAdmin(listUsers, { token });
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).error).toBe('access_denied');
  });

  it('answers a missing token with 401 invalid_token and the Bearer and DPoP challenges (RFC 6750 3.1, RFC 9449 7.1, behaviour BEARER-5)', async () => {
    const result = await callAdmin(listUsers);
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_token');
    expect(headerOf(result, 'www-authenticate')).toBe('Bearer, DPoP algs="ES256 ES384 PS256 RS256 EdDSA"');
  });

  it('answers a forged token with 401 invalid_token', async () => {
    const result = await callAdmin(listUsers, { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.x' });
    expect(result.statusCode).toBe(401);
    expect(jsonBody(result).error).toBe('invalid_token');
  });

  it('answers a token with no issued-token record (revoked or never issued) with 401', async () => {
    const { client } = await adminClientToken();
    const { config, clock, random } = getContainer();
    const minted = await mintAccessToken(
      { clientId: client.clientId, scopes: ['admin'] },
      { issuer: config.baseUrl, signer: await getSigner(), clock, random },
    );
    const result = await callAdmin(listUsers, { token: minted.accessToken });
    expect(result.statusCode).toBe(401);
  });
});

describe('behaviour CUSTODY-4: handing over the bootstrap admin client (docs/deployment.md, "Handing over the first admin")', () => {
  it('a successor admin client made through the API works, and deleting the bootstrap client refuses its live token at once', async () => {
    const bootstrap = await adminClientToken();
    const environmentId = await createEnvironment('Handover');
    const created = await callAdmin(postClient, {
      token: bootstrap.token,
      method: 'POST',
      body: { name: 'platform automation', environment_id: environmentId, type: 'confidential', admin: true, scopes: ['admin'] },
    });
    expect(created.statusCode).toBe(201);
    const successor = jsonBody(created) as { client_id: string; client_secret: string; admin: boolean };
    expect(successor.admin).toBe(true);
    expect(successor.client_secret).toBeTruthy();
    const successorToken = (await issueAccessToken({ clientId: successor.client_id, scopes: ['admin'] })).token;

    const deleted = await callAdmin(deleteClient, {
      token: successorToken,
      method: 'DELETE',
      pathParameters: { client_id: bootstrap.client.clientId },
    });
    expect(deleted.statusCode).toBe(204);
    // The bootstrap token has not expired: the admin check reads the client record on every call.
    const refused = await callAdmin(listUsers, { token: bootstrap.token });
    expect({ status: refused.statusCode, error: jsonBody(refused).error }).toEqual({ status: 401, error: 'invalid_token' });
    expect((await callAdmin(listUsers, { token: successorToken })).statusCode).toBe(200);
  });
});
