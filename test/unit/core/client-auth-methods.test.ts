/**
 * lambdas/core/client-auth/auth-methods.ts is the one list of client-authentication methods:
 * discovery, dynamic registration and the behaviour reference follow it, registry.ts joins each to
 * its implementation, and at most one method claims a request (RFC 6749 2.3: a client uses one
 * method, behaviour TOKEN-3).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../lambdas/config/settings';
import { authenticateClient, type ClientAuthDependencies } from '../../../lambdas/core/client-auth/authenticate';
import type { ClientAuthRequest } from '../../../lambdas/core/client-auth/method';
import { clientAuthMethodNames, clientAuthMethodsFor } from '../../../lambdas/core/client-auth/auth-methods';
import { clientAuthMethods, presentedClient } from '../../../lambdas/core/client-auth/registry';
import { authorizationServerMetadata } from '../../../lambdas/core/discovery';
import { InvalidClientError, InvalidRequestError } from '../../../lambdas/core/errors';
import type { Client } from '../../../lambdas/core/model';
import { validateRegistration } from '../../../lambdas/core/registration';
import { VerifiedSecretCache } from '../../../lambdas/core/verified-secret-cache';

const jwtBearer = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const unsignedFor = (sub: string) => `e30.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.sig`;
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const requests: Record<string, ClientAuthRequest> = {
  header: { authorization: basic('c1', 's1'), form: {} },
  'header and client_id': { authorization: basic('c1', 's1'), form: { client_id: 'c1' } },
  'form secret': { authorization: undefined, form: { client_id: 'c1', client_secret: 's1' } },
  'client_id alone': { authorization: undefined, form: { client_id: 'c1' } },
  'empty header, client_id alone': { authorization: '', form: { client_id: 'c1' } },
  'assertion and client_id': {
    authorization: undefined,
    form: { client_id: 'c1', client_assertion_type: jwtBearer, client_assertion: 'a.b.c' },
  },
  'assertion alone': { authorization: undefined, form: { client_assertion_type: jwtBearer, client_assertion: unsignedFor('c1') } },
};

test.each(Object.entries(requests))('exactly one method claims a request with %s', (_, request) => {
  const claims = clientAuthMethods.map((method) => method.present(request)).filter(Boolean);
  expect(claims).toHaveLength(1);
  expect(presentedClient(request)).toEqual(claims[0]);
});

test('the methods read what TOKEN-3 says: Basic header, form secret, client_id alone', () => {
  expect(presentedClient(requests.header!)).toEqual({ clientId: 'c1', secret: 's1', method: 'client_secret_basic' });
  expect(presentedClient(requests['form secret']!)).toEqual({ clientId: 'c1', secret: 's1', method: 'client_secret_post' });
  expect(presentedClient(requests['client_id alone']!)).toEqual({ clientId: 'c1', method: 'none' });
});

test('a request no method claims is invalid_client; two methods at once are invalid_request (behaviour TOKEN-3)', () => {
  expect(() => presentedClient({ authorization: 'Bearer x', form: { client_id: 'c1' } })).toThrow(InvalidClientError);
  expect(() => presentedClient({ authorization: undefined, form: {} })).toThrow(InvalidClientError);
  expect(() => presentedClient({ authorization: undefined, form: { client_secret: 's1' } })).toThrow(InvalidClientError);
  expect(() => presentedClient({ authorization: basic('c1', 's1'), form: { client_secret: 's1' } })).toThrow(InvalidRequestError);
  const assertion = { client_assertion_type: jwtBearer, client_assertion: 'a.b.c' };
  expect(() => presentedClient({ authorization: basic('c1', 's1'), form: assertion })).toThrow(InvalidRequestError);
  expect(() => presentedClient({ authorization: undefined, form: { client_id: 'c1', client_secret: 's1', ...assertion } })).toThrow(
    InvalidRequestError,
  );
});

test('private_key_jwt reads the assertion, with the client from client_id or else its sub (RFC 7521 4.2, behaviour TOKEN-6)', () => {
  expect(presentedClient(requests['assertion and client_id']!)).toEqual({ clientId: 'c1', assertion: 'a.b.c', method: 'private_key_jwt' });
  expect(presentedClient(requests['assertion alone']!)).toMatchObject({ clientId: 'c1', method: 'private_key_jwt' });
  const refused = [
    { client_id: 'c1', client_assertion_type: 'urn:other', client_assertion: 'a.b.c' },
    { client_id: 'c1', client_assertion_type: jwtBearer },
    { client_id: 'c1', client_assertion: 'a.b.c' },
    { client_assertion_type: jwtBearer, client_assertion: 'not-a-jwt' },
  ];
  for (const form of refused) expect(() => presentedClient({ authorization: undefined, form })).toThrow(InvalidClientError);
});

test('a method authenticates only clients of its type, with the same invalid_client (behaviour TOKEN-3)', async () => {
  const hasher = {
    hash: async () => 'h',
    verify: async (_: string, secret: string) => secret === 's1',
    verifyDummy: async () => undefined,
  };
  const client = (type: Client['type']) => ({ clientId: 'c1', type, ...(type === 'confidential' ? { secretHash: 'h' } : {}) }) as Client;
  const deps = (type: Client['type']): ClientAuthDependencies => ({
    findClient: async () => client(type),
    hasher,
    secretCache: new VerifiedSecretCache(),
    clock: { now: () => Date.now() },
    assertions: {
      verifier: { verify: async () => Promise.reject(new Error('not reached')) },
      singleUseIds: { use: async () => true },
      audiences: [],
    },
  });
  for (const method of clientAuthMethods) {
    const presented = { clientId: 'c1', ...(method.clientType === 'confidential' ? { secret: 's1' } : {}), method: method.name };
    const other = method.clientType === 'public' ? 'confidential' : 'public';
    await expect(authenticateClient(presented, deps(other))).rejects.toThrow(InvalidClientError);
  }
  await expect(authenticateClient({ clientId: 'c1', method: 'none' }, deps('public'))).resolves.toMatchObject({ clientId: 'c1' });
  for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
    await expect(authenticateClient({ clientId: 'c1', secret: 's1', method }, deps('confidential'))).resolves.toMatchObject({
      clientId: 'c1',
    });
  }
  await expect(authenticateClient({ clientId: 'c1', secret: 'wrong', method: 'client_secret_post' }, deps('confidential'))).rejects.toThrow(
    InvalidClientError,
  );
});

test('discovery advertises the registry’s methods, introspection only those for confidential clients (behaviour DISC-2, INTRO-1)', () => {
  const config = loadConfig({
    BASE_URL: 'https://auth.example.com',
    JWKS_CDN_BASE_URL: 'https://cdn.example.com',
    MAIL_FROM: 'a@example.com',
  });
  const metadata = authorizationServerMetadata(config, []);
  expect(metadata.token_endpoint_auth_methods_supported).toEqual(clientAuthMethodNames);
  expect(metadata.revocation_endpoint_auth_methods_supported).toEqual(clientAuthMethodNames);
  expect(metadata.introspection_endpoint_auth_methods_supported).toEqual(clientAuthMethodsFor('confidential'));
  expect(clientAuthMethodsFor('confidential')).not.toContain('none');
});

test('dynamic registration takes the methods for public clients only (behaviour REG-3)', () => {
  const register = (token_endpoint_auth_method: string) =>
    validateRegistration({ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method }, []);
  for (const name of clientAuthMethodsFor('public')) expect(() => register(name)).not.toThrow();
  // private_key_jwt is the one confidential method a dynamic client may name, with its keys (behaviour REG-11).
  for (const name of clientAuthMethodsFor('confidential').filter((m) => m !== 'private_key_jwt')) {
    expect(() => register(name)).toThrow('token_endpoint_auth_method');
  }
  expect(() => register('private_key_jwt')).toThrow('jwks, jwks_uri');
});

test('behaviour TOKEN-3 names every method of the registry', () => {
  const reference = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'behaviour', 'token-endpoint.md'), 'utf8');
  const token3 = /<a id="token-3"><\/a>[\s\S]*?(?=<a id=)/.exec(reference)![0];
  for (const name of clientAuthMethodNames) expect(token3).toContain(`- \`${name}\`:`);
});
