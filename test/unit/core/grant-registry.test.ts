/**
 * lambdas/core/grants/grant-types.ts is the one list of grant types: discovery, client validation,
 * the activity log's request types and the behaviour reference follow it, and registry.ts joins
 * each to its implementation, so adding a grant is one entry there, one module and one line in the
 * registry (with its behaviour rules).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../lambdas/config/settings';
import { activityRequestTypes } from '../../../lambdas/core/admin/activity';
import { authorizationServerMetadata } from '../../../lambdas/core/discovery';
import { UnauthorizedClientError, UnsupportedGrantTypeError } from '../../../lambdas/core/errors';
import { assertClientMayUse, grantTypes, publicClientGrantTypes } from '../../../lambdas/core/grants/grant-types';
import { grantFor, grants } from '../../../lambdas/core/grants/registry';
import { dynamicClientGrantTypes, validateRegistration } from '../../../lambdas/core/registration';

const behaviourDir = join(__dirname, '..', '..', '..', 'docs', 'behaviour');
const env = { BASE_URL: 'https://auth.example.com', JWKS_CDN_BASE_URL: 'https://cdn.example.com', MAIL_FROM: 'a@example.com' };
const catalog = [{ name: 'openid', description: '', discoverable: true }];
const confidentialOnly = grants.filter((grant) => grant.confidentialOnly).map((grant) => grant.type);

test('each grant type is listed once, and grantFor finds it (RFC 6749 5.2: any other is unsupported_grant_type)', () => {
  expect(new Set(grantTypes).size).toBe(grants.length);
  for (const type of grantTypes) expect(grantFor(type).type).toBe(type);
  expect(() => grantFor('password')).toThrow(UnsupportedGrantTypeError);
});

test('discovery advertises the registry’s grant types, in its order (behaviour DISC-2)', () => {
  expect(authorizationServerMetadata(loadConfig(env), catalog).grant_types_supported).toEqual(grantTypes);
});

test('a grant for confidential clients only is refused to a public client that lists it (behaviour CC-1)', () => {
  expect(confidentialOnly).toContain('client_credentials');
  for (const type of confidentialOnly) {
    expect(() => assertClientMayUse({ type: 'public', grantTypes: [type] }, type)).toThrow(UnauthorizedClientError);
    expect(() => assertClientMayUse({ type: 'confidential', grantTypes: [type] }, type)).not.toThrow();
  }
  for (const type of publicClientGrantTypes) expect(() => assertClientMayUse({ type: 'public', grantTypes: [type] }, type)).not.toThrow();
});

test('dynamic registration offers its grants, each one a public client may use, and no other grant of the registry (behaviour REG-3)', () => {
  expect(publicClientGrantTypes).toEqual(grantTypes.filter((type) => !confidentialOnly.includes(type)));
  for (const type of dynamicClientGrantTypes) expect(publicClientGrantTypes).toContain(type);
  const register = (grant_types: string[]) => validateRegistration({ redirect_uris: ['https://app.example/cb'], grant_types }, catalog);
  expect(register([...dynamicClientGrantTypes]).grantTypes).toEqual(dynamicClientGrantTypes);
  for (const type of grantTypes.filter((t) => !dynamicClientGrantTypes.includes(t))) {
    expect(() => register(['authorization_code', type])).toThrow(`"${type}" is not available`);
  }
});

test('the activity log filters by every grant type, an API-key exchange and an unread grant type (behaviour LOG-2)', () => {
  expect(activityRequestTypes).toEqual([...grantTypes, 'api key', 'unknown']);
});

test('the behaviour reference has one section per grant type in the registry’s order, each with its rule prefix in the index', () => {
  const sections = [...readFileSync(join(behaviourDir, 'token-endpoint.md'), 'utf8').matchAll(/^## (\S+)$/gm)].map(([, name]) => name);
  expect(sections).toEqual(grantTypes);
  const index = readFileSync(join(behaviourDir, 'README.md'), 'utf8');
  for (const type of grantTypes) expect(index).toContain(`(token-endpoint.md#${type.toLowerCase().replace(/[^a-z0-9_-]/g, '')})`);
});
