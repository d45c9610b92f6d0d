/**
 * Behaviour ADMIN-19, TOKEN-6: the keys a private_key_jwt client registers, checked the same way by
 * the admin API, dynamic registration and metadata documents (core/client-keys.ts); an admin's
 * refusal comes before anything is read or written.
 */
import { createClient, type NewClient } from '../../../lambdas/core/admin/clients';
import type { AdminActor } from '../../../lambdas/core/admin/audit';
import { checkClientKeys } from '../../../lambdas/core/client-keys';
import { InvalidRequestError } from '../../../lambdas/core/errors';

const ec = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid: 'k1', alg: 'ES256', use: 'sig' };

test.each<[string, Parameters<typeof checkClientKeys>[0], RegExp]>([
  ['neither jwks nor jwks_uri', {}, /^jwks, jwks_uri: .*exactly one/],
  ['both jwks and jwks_uri', { jwks: { keys: [ec] }, jwksUri: 'https://c.example/jwks' }, /exactly one/],
  ['a set without keys', { jwks: { keys: [] } }, /^jwks: keys: must hold 1 to 20 keys/],
  ['not a set', { jwks: [ec] }, /^jwks: must be a JSON Web Key Set/],
  ['a private key', { jwks: { keys: [{ ...ec, d: 'secret' }] } }, /^jwks: keys\.0: is a private or symmetric key \(it has d\)/],
  ['a symmetric key', { jwks: { keys: [{ kty: 'oct', k: 'secret' }] } }, /^jwks: keys\.0: is a private or symmetric key \(it has k\)/],
  ['a key type that signs nothing here', { jwks: { keys: [{ kty: 'oct' }] } }, /^jwks: keys\.0: kty must be one of EC, RSA, OKP/],
  ['an EC key without its public members', { jwks: { keys: [{ kty: 'EC', crv: 'P-256' }] } }, /^jwks: keys\.0: must have x, y/],
  ['two keys with one kid', { jwks: { keys: [ec, ec] } }, /^jwks: keys\.1: kid "k1" is used by another key/],
  ['an encryption key', { jwks: { keys: [{ ...ec, use: 'enc' }] } }, /use must be "sig"/],
  ['an HMAC alg on a key', { jwks: { keys: [{ ...ec, alg: 'HS256' }] } }, /alg must be one of/],
  ['a jwks_uri over http', { jwksUri: 'http://c.example/jwks' }, /^jwks_uri: must be an https URL/],
  ['a jwks_uri with a fragment', { jwksUri: 'https://c.example/jwks#x' }, /no fragment/],
  ['a relative jwks_uri', { jwksUri: '/jwks' }, /absolute URL/],
  ['alg none', { jwks: { keys: [ec] }, signingAlg: 'none' }, /^token_endpoint_auth_signing_alg: must be one of/],
  ['an HMAC signing alg', { jwks: { keys: [ec] }, signingAlg: 'HS256' }, /^token_endpoint_auth_signing_alg/],
])('refuses %s, naming the field', (_what, input, problem) => {
  const checked = checkClientKeys(input);
  expect('problem' in checked && checked.problem).toMatch(problem);
});

test('accepts public signing keys or an https jwks_uri, with an asymmetric signing alg', () => {
  expect(checkClientKeys({ jwks: { keys: [ec] }, signingAlg: 'ES256' })).toEqual({
    keys: { jwks: { keys: [ec] }, tokenEndpointAuthSigningAlg: 'ES256' },
  });
  expect(checkClientKeys({ jwksUri: 'https://c.example/jwks' })).toEqual({ keys: { jwksUri: 'https://c.example/jwks' } });
  // The local server's loopback jwks_uri, as its metadata documents.
  expect(checkClientKeys({ jwksUri: 'http://localhost:8080/jwks' }, true)).toEqual({ keys: { jwksUri: 'http://localhost:8080/jwks' } });
  expect(checkClientKeys({ jwksUri: 'http://c.example/jwks' }, true)).toHaveProperty('problem');
});

test('an admin-created client with bad keys, or keys on a public client, is refused before anything is read (behaviour ADMIN-19)', async () => {
  const reached = new Error('read the environment');
  const deps = {
    adminScope: 'admin',
    environments: {
      get: async () => {
        throw reached;
      },
    },
  } as unknown as Parameters<typeof createClient>[0];
  const base: NewClient = {
    type: 'confidential',
    name: 'c',
    environmentId: 'env',
    scopes: [],
    redirectUris: [],
    admin: false,
    test: false,
  };
  const publicWithKeys = createClient(deps, {} as AdminActor, {
    ...base,
    type: 'public',
    redirectUris: ['https://app.example/cb'],
    keys: { jwks: { keys: [ec] } },
  });
  await expect(publicWithKeys).rejects.toThrow(InvalidRequestError);
  await expect(publicWithKeys).rejects.toThrow('only a confidential client authenticates with keys');
  await expect(createClient(deps, {} as AdminActor, { ...base, keys: { jwks: { keys: [{ ...ec, d: 'x' }] } } })).rejects.toThrow(
    InvalidRequestError,
  );
  await expect(createClient(deps, {} as AdminActor, { ...base, keys: { jwks: { keys: [ec] } } })).rejects.toBe(reached);
});
