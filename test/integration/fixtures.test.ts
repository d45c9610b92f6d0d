/**
 * The test fixtures (test/support/fixtures) make what their names and options say: the other
 * tests rely on these defaults without restating them.
 */
import { getClientRepository, getEnvironments, getHasher } from '../../lambdas/wiring/repositories';
import {
  createClient,
  createClientWithSecret,
  createEnvironment,
  createUser,
  createUserWithPassword,
  redirectUri,
  setUpTokenFamily,
  testFileEnvironment,
} from '../support/fixtures';

const environmentsOf = async (userId: string) => (await getEnvironments().grantsOf(userId)).map((grant) => grant.environmentId);

describe('users', () => {
  it('hold this test file’s environment, the given ones instead, or none', async () => {
    const fileEnvironment = await testFileEnvironment();
    const other = await createEnvironment();
    expect(await environmentsOf((await createUser()).id)).toEqual([fileEnvironment]);
    expect((await environmentsOf((await createUser({ environments: [other, fileEnvironment] })).id)).sort()).toEqual(
      [other, fileEnvironment].sort(),
    );
    expect(await environmentsOf((await createUser({ environments: [] })).id)).toEqual([]);
  });

  it('are unique test users without a password unless made with one, which then verifies', async () => {
    const [a, b] = [await createUser(), await createUser({ admin: true, test: false })];
    expect(a.id).not.toBe(b.id);
    expect(a.email).not.toBe(b.email);
    expect(a).toMatchObject({ admin: false, test: true });
    expect(a.passwordHash).toBeUndefined();
    expect(b).toMatchObject({ admin: true, test: false });
    const { user, password } = await createUserWithPassword();
    expect(await getHasher().verify(user.passwordHash!, password)).toBe(true);
  });
});

describe('clients', () => {
  it('a service by default: confidential, client_credentials, no redirect URI, in this file’s environment, stored', async () => {
    const client = await createClient({ scopes: ['read'] });
    expect(client).toMatchObject({
      type: 'confidential',
      grantTypes: ['client_credentials'],
      redirectUris: [],
      scopes: ['read'],
      test: true,
    });
    expect(client.environmentId).toBe(await testFileEnvironment());
    expect(await getClientRepository().get(client.clientId)).toMatchObject({ clientId: client.clientId });
  });

  it('an app: public, the code and refresh grants at redirectUri, openid profile email', async () => {
    expect(await createClient({ kind: 'app' })).toMatchObject({
      type: 'public',
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [redirectUri],
      scopes: ['openid', 'profile', 'email'],
    });
  });

  it('with a secret: a confidential client’s verifies against its stored hash; a public client has none', async () => {
    const service = await createClientWithSecret();
    expect(await getHasher().verify(service.client.secretHash!, service.secret!)).toBe(true);
    const app = await createClientWithSecret({ kind: 'app' });
    expect(app.secret).toBeUndefined();
    expect(app.client.secretHash).toBeUndefined();
  });
});

describe('the token family', () => {
  it('one fresh environment held by its user, with an app and a resource server that may introspect all', async () => {
    const family = await setUpTokenFamily({ resourceServerScopes: ['read'] });
    expect(family.environmentId).not.toBe(await testFileEnvironment());
    expect(await environmentsOf(family.user.id)).toEqual([family.environmentId]);
    expect(family.app).toMatchObject({ type: 'public', environmentId: family.environmentId, test: false });
    expect(family.app.scopes).toEqual(['openid', 'profile', 'email', 'read', 'write']);
    expect(family.resourceServer.client).toMatchObject({
      type: 'confidential',
      grantTypes: ['client_credentials'],
      scopes: ['read'],
      introspectAll: true,
      environmentId: family.environmentId,
    });
    expect(family.resourceServer.secret).toEqual(expect.any(String));
  });

  it('a resource server without introspect_all when asked', async () => {
    const { resourceServer } = await setUpTokenFamily({ introspectAll: false });
    expect(resourceServer.client.introspectAll).toBeUndefined();
  });
});
