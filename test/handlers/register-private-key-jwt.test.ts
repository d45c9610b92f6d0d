/**
 * Dynamic registration of clients that sign assertions (RFC 7591 2 `jwks`, `jwks_uri`; behaviour
 * REG-11): confidential, no secret, authenticated with private_key_jwt (behaviour TOKEN-6). The same
 * checks serve Client ID Metadata Documents, which go through the same validation.
 */
import { randomUUID } from 'node:crypto';
import { clientFromMetadataDocument } from '../../lambdas/core/client-metadata-document';
import { handler } from '../../lambdas/handlers/register';
import { getClientRepository } from '../../lambdas/wiring/repositories';
import { apiGatewayEvent, jsonBody, lambdaContext } from '../support/events';
import { clientKey, type ClientKey } from '../support/private-key-jwt';

const register = (body: unknown) =>
  handler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/register',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      sourceIp: `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID().slice(0, 6)}`,
    }),
    lambdaContext,
  );

const metadata = {
  client_name: 'Keyed app',
  redirect_uris: ['https://app.example.test/cb'],
  grant_types: ['authorization_code'],
  scope: '',
};
let key: ClientKey;
beforeAll(async () => {
  key = await clientKey();
});

describe('POST /api/register with private_key_jwt (behaviour REG-11)', () => {
  it('registers a confidential client with its jwks: no secret, the keys echoed', async () => {
    const result = await register({ ...metadata, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.jwk] } });
    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.jwk] } });
    expect(Object.keys(body).filter((name) => name.startsWith('client_secret'))).toEqual([]);
    const stored = await getClientRepository().get(String(body.client_id));
    expect(stored).toMatchObject({ type: 'confidential', registrationType: 'dynamic', jwks: { keys: [key.jwk] } });
    expect(stored).not.toHaveProperty('secretHash');
  });

  it('registers one with an https jwks_uri and a signing alg', async () => {
    const result = await register({
      ...metadata,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: 'https://app.example.test/jwks.json',
      token_endpoint_auth_signing_alg: 'ES256',
    });
    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({ jwks_uri: 'https://app.example.test/jwks.json', token_endpoint_auth_signing_alg: 'ES256' });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['private_key_jwt without keys', { token_endpoint_auth_method: 'private_key_jwt' }, /^jwks, jwks_uri: .*exactly one/],
    [
      'both jwks and jwks_uri',
      { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'EC' }] }, jwks_uri: 'https://a.example.test/j' },
      /exactly one/,
    ],
    [
      'a private key',
      { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'EC', d: 'secret' }] } },
      /private or symmetric key/,
    ],
    [
      'a jwks_uri over http',
      { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'http://a.example.test/j' },
      /^jwks_uri: must be an https URL/,
    ],
    [
      'an HMAC signing alg',
      {
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] },
        token_endpoint_auth_signing_alg: 'HS256',
      },
      /^token_endpoint_auth_signing_alg/,
    ],
    [
      'keys with the none method',
      { jwks: { keys: [{ kty: 'EC' }] } },
      /^jwks, jwks_uri: only for token_endpoint_auth_method "private_key_jwt"/,
    ],
    [
      'a secret method',
      { token_endpoint_auth_method: 'client_secret_basic' },
      /^token_endpoint_auth_method: only "none", "private_key_jwt"/,
    ],
  ])('refuses %s: 400 invalid_client_metadata naming the field', async (_what, extra, description) => {
    const result = await register({ ...metadata, ...extra });
    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).error).toBe('invalid_client_metadata');
    expect(String(jsonBody(result).error_description)).toMatch(description);
  });
});

describe('Client ID Metadata Documents with private_key_jwt (the same validation, behaviour REG-11)', () => {
  const url = 'https://app.example.test/client.json';
  const facts = { environmentId: 'env', fetchedAt: new Date().toISOString() };

  it('a document naming private_key_jwt and its jwks_uri makes a confidential client with no secret', () => {
    const client = clientFromMetadataDocument(
      url,
      { ...metadata, client_id: url, token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://app.example.test/jwks.json' },
      [],
      facts,
    );
    expect(client).toMatchObject({ type: 'confidential', jwksUri: 'https://app.example.test/jwks.json' });
    expect(client).not.toHaveProperty('secretHash');
  });

  it('a document with a private key is refused', () => {
    expect(() =>
      clientFromMetadataDocument(
        url,
        { ...metadata, client_id: url, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'EC', d: 'x' }] } },
        [],
        facts,
      ),
    ).toThrow(/private or symmetric key/);
  });
});
