/**
 * POST /api/token, grant_type=client_credentials (RFC 6749 4.4, behaviour CC-2):
 * client_secret_basic and client_secret_post, scopes within the client's, `resource` as
 * aud, no `sub`, no refresh token; the verified-secret cache keeps Argon2id off repeats.
 */
import { getHasher } from '../../lambdas/wiring/repositories';
import { headerOf } from '../support/events';
import { activityOf, basic, issuer, postToken, resourceA, storedFor, verifyAsResourceServer } from '../support/token-calls';
import { createEnvironment, createTokenClient, type TestClient } from '../support/fixtures';

let environmentId: string;
let service: TestClient;

beforeAll(async () => {
  environmentId = await createEnvironment();
  service = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read', 'write'] });
});

const grant = { grant_type: 'client_credentials' };
const viaBasic = (c: TestClient, secret = c.secret!) => ({ headers: { Authorization: basic(c.client.clientId, secret) } });
const viaPost = (c: TestClient, secret = c.secret!) => ({ client_id: c.client.clientId, client_secret: secret });

describe('a confidential client (RFC 6749 4.4.2)', () => {
  it('client_secret_basic: a JWT a resource server verifies with the JWKS, aud = resource, no sub (behaviour CC-2)', async () => {
    const { status, body } = await postToken({ ...grant, resource: resourceA }, viaBasic(service));
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
    // RFC 6749 4.4.3: no refresh token.
    expect(body).not.toHaveProperty('refresh_token');
    const claims = await verifyAsResourceServer(String(body.access_token), resourceA);
    expect(claims).toMatchObject({ iss: issuer(), aud: resourceA, client_id: service.client.clientId, scope: 'read write' });
    expect(claims).not.toHaveProperty('sub');
  });

  it('client_secret_post: works the same; without resource the aud is the issuer', async () => {
    const { status, body } = await postToken({ ...grant, ...viaPost(service), scope: 'read' });
    expect(status).toBe(200);
    expect(body.scope).toBe('read');
    expect((await verifyAsResourceServer(String(body.access_token), issuer())).aud).toBe(issuer());
  });

  it('writes the token record and one activity row, and no refresh token', async () => {
    const fresh = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    expect((await postToken(grant, viaBasic(fresh))).status).toBe(200);
    expect(await storedFor(fresh.client.clientId)).toEqual({ tokenRecords: 1, refreshTokens: 0, families: 0 });
    const rows = await activityOf(fresh.client.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestType: 'client_credentials', success: true, environmentId });
    expect(rows[0]).not.toHaveProperty('userId');
  });

  it('verifies a repeated secret from the cache, without Argon2id (behaviour TOKEN-3)', async () => {
    const fresh = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    const verify = jest.spyOn(getHasher(), 'verify');
    try {
      expect((await postToken(grant, viaBasic(fresh))).status).toBe(200);
      expect((await postToken(grant, viaBasic(fresh))).status).toBe(200);
      expect(verify).toHaveBeenCalledTimes(1);
      // A wrong secret is never served from the cache.
      expect((await postToken(grant, viaBasic(fresh, 'wrong'))).status).toBe(401);
      expect(verify).toHaveBeenCalledTimes(2);
    } finally {
      verify.mockRestore();
    }
  });
});

describe('RFC 6749 5.2 rows of the client_credentials grant', () => {
  it('invalid_client 401 with WWW-Authenticate: Basic when Basic was used with a wrong secret', async () => {
    const { status, body, result } = await postToken(grant, viaBasic(service, 'not-the-secret'));
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
    expect(headerOf(result, 'www-authenticate')).toMatch(/^Basic /);
  });

  it('invalid_client 401 for a wrong client_secret_post, without a Basic challenge', async () => {
    const { status, body, result } = await postToken({ ...grant, ...viaPost(service, 'not-the-secret') });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
    expect(headerOf(result, 'www-authenticate')).toBeUndefined();
  });

  it('invalid_client for an unknown client, the same answer as a wrong secret', async () => {
    const { status, body } = await postToken({ ...grant, client_id: 'tgc_nosuchclient', client_secret: 'whatever' });
    expect(status).toBe(401);
    expect(body).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed.' });
  });

  it('invalid_client for a confidential client that sends no secret', async () => {
    const { status, body } = await postToken({ ...grant, client_id: service.client.clientId });
    expect(status).toBe(401);
    expect(body.error).toBe('invalid_client');
  });

  it('unauthorized_client for a public client, even one registered for the grant (RFC 6749 4.4)', async () => {
    const { client } = await createTokenClient({ environmentId, grantTypes: ['client_credentials'] });
    const { status, body } = await postToken({ ...grant, client_id: client.clientId });
    expect(status).toBe(400);
    expect(body.error).toBe('unauthorized_client');
  });

  it('unauthorized_client for a confidential client not registered for the grant', async () => {
    const web = await createTokenClient({ environmentId, type: 'confidential' });
    const { status, body } = await postToken(grant, viaBasic(web));
    expect(status).toBe(400);
    expect(body.error).toBe('unauthorized_client');
    expect(await storedFor(web.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
  });

  it('invalid_scope for a scope the client was not granted, and nothing is written', async () => {
    const fresh = await createTokenClient({ environmentId, type: 'confidential', grantTypes: ['client_credentials'], scopes: ['read'] });
    const { status, body } = await postToken({ ...grant, scope: 'read admin' }, viaBasic(fresh));
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_scope');
    expect(await storedFor(fresh.client.clientId)).toEqual({ tokenRecords: 0, refreshTokens: 0, families: 0 });
    const rows = await activityOf(fresh.client.clientId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ success: false, reason: 'invalid_scope: not granted to the client: admin' });
  });

  it('invalid_target for a resource that is not an absolute URI (RFC 8707 2)', async () => {
    const { status, body } = await postToken({ ...grant, resource: '/relative' }, viaBasic(service));
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_target');
  });
});
