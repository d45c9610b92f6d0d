/**
 * Behaviour ADMIN-19: private_key_jwt clients through the admin API. Registered with `jwks` or
 * `jwks_uri` instead of a secret, shown with their public keys, their keys rotated by PATCH; the
 * client then authenticates at the token endpoint with an assertion (behaviour TOKEN-6).
 */
import { handler as postClient } from '../../lambdas/handlers/admin/clients-create';
import { handler as patchClient } from '../../lambdas/handlers/admin/clients-update';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { callAdmin, ensureScopes } from '../support/admin-calls';
import { jsonBody } from '../support/events';
import { adminClientToken, createEnvironment } from '../support/fixtures';
import { assertionFields, clientAssertion, clientKey, type ClientKey } from '../support/private-key-jwt';
import { postToken } from '../support/token-calls';

let token: string;
let environmentId: string;
let key: ClientKey;

beforeAll(async () => {
  await ensureScopes('read');
  token = (await adminClientToken()).token;
  environmentId = await createEnvironment('Keyed clients');
  key = await clientKey();
});

const create = (body: Record<string, unknown>) =>
  callAdmin(postClient, {
    token,
    method: 'POST',
    body: { name: 'Service', environment_id: environmentId, type: 'confidential', scopes: ['read'], ...body },
  });
const patch = (clientId: string, body: unknown) =>
  callAdmin(patchClient, { token, method: 'PATCH', pathParameters: { client_id: clientId }, body });
const tokenFor = async (clientId: string, signer: ClientKey) =>
  postToken({ grant_type: 'client_credentials', ...assertionFields(await clientAssertion(clientId, signer)) });

describe('POST /api/admin/clients with keys (behaviour ADMIN-19)', () => {
  it('creates a private_key_jwt client: no secret, its public keys shown, and it gets a token with an assertion', async () => {
    const result = await create({ jwks: { keys: [key.jwk] }, token_endpoint_auth_signing_alg: 'ES256' });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [key.jwk] },
      token_endpoint_auth_signing_alg: 'ES256',
    });
    expect(body).not.toHaveProperty('client_secret');
    const stored = await getClientRepository().get(String(body.client_id));
    expect(stored).not.toHaveProperty('secretHash');
    expect((await tokenFor(String(body.client_id), key)).status).toBe(200);
  });

  it('creates one with an https jwks_uri', async () => {
    const body = jsonBody(await create({ jwks_uri: 'https://keys.example.test/jwks.json' }));
    expect(body).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://keys.example.test/jwks.json' });
    expect(body).not.toHaveProperty('client_secret');
  });

  it('a client without keys keeps its secret (client_secret_basic)', async () => {
    const body = jsonBody(await create({}));
    expect(body).not.toHaveProperty('token_endpoint_auth_method');
    expect(body).toHaveProperty('client_secret');
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['both jwks and jwks_uri', { jwks: { keys: [{ kty: 'EC' }] }, jwks_uri: 'https://k.example.test/jwks' }, /^jwks, jwks_uri: /],
    [
      'a private key',
      { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }] } },
      /^jwks: keys\.0: is a private or symmetric key \(it has d\)/,
    ],
    ['a symmetric key', { jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } }, /^jwks: keys\.0: is a private or symmetric key \(it has k\)/],
    ['a jwks_uri over http', { jwks_uri: 'http://k.example.test/jwks' }, /^jwks_uri: must be an https URL/],
    [
      'an HMAC signing alg',
      { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] }, token_endpoint_auth_signing_alg: 'HS256' },
      /^token_endpoint_auth_signing_alg: /,
    ],
    [
      'keys on a public client',
      { type: 'public', redirect_uris: ['https://a.example.test/cb'], jwks: { keys: [{ kty: 'EC' }] } },
      /only a confidential client/,
    ],
    // Refused before anything is read or written: test/unit/core/client-keys.test.ts.
  ])('refuses %s with 400 invalid_request naming the field', async (_what, body, description) => {
    const result = await create(body);
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_request');
    expect(String(jsonBody(result).error_description)).toMatch(description);
  });
});

describe('PATCH /api/admin/clients/{client_id}: key rotation (behaviour ADMIN-19)', () => {
  it('replaces the set: the new key signs, the old one no longer does', async () => {
    const clientId = String(jsonBody(await create({ jwks: { keys: [key.jwk] } })).client_id);
    const next = await clientKey();
    const result = await patch(clientId, { jwks: { keys: [next.jwk] } });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).jwks).toEqual({ keys: [next.jwk] });
    expect((await tokenFor(clientId, next)).status).toBe(200);
    expect((await tokenFor(clientId, key)).status).toBe(401);
  });

  it('refuses keys for a client with a secret, another kind of keys, and bad keys, changing nothing', async () => {
    const secretClient = String(jsonBody(await create({})).client_id);
    expect(jsonBody(await patch(secretClient, { jwks: { keys: [key.jwk] } }))).toMatchObject({ error: 'invalid_request' });
    const keyed = String(jsonBody(await create({ jwks: { keys: [key.jwk] } })).client_id);
    const otherKind = await patch(keyed, { jwks_uri: 'https://k.example.test/jwks' });
    expect(otherKind.statusCode).toBe(400);
    expect(jsonBody(otherKind).error_description).toMatch(/^jwks: /);
    expect((await patch(keyed, { jwks: { keys: [{ ...key.jwk, d: 'x' }] } })).statusCode).toBe(400);
    expect((await getClientRepository().get(keyed))?.jwks).toEqual({ keys: [key.jwk] });
    expect((await getClientRepository().get(secretClient))?.jwks).toBeUndefined();
  });
});
