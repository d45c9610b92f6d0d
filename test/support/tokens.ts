/**
 * Access tokens for tests of bearer-protected endpoints: minted with the server's own
 * signer and recorded as the token endpoint would (issued-token record plus activity
 * row), so lambdas/http/bearer.ts accepts them. Records are made through the real
 * repositories, with unique ids, so test files can share one DynamoDB Local.
 */
import { passwordAndCodeAmr } from '../../lambdas/core/account/second-factor';
import { randomUUID } from 'node:crypto';
import { adminScope } from '../../lambdas/core/scope';
import { newId } from '../../lambdas/core/ids';
import type { Client, User } from '../../lambdas/core/model';
import { mintAccessToken } from '../../lambdas/core/tokens';
import { getContainer } from '../../lambdas/wiring/container';
import { getClientRepository, getEnvironments, getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { getSigner } from '../../lambdas/wiring/signing';
import { grantTestEnvironment } from './environments';
import { ensureScopes } from './admin-calls';

export const uniqueSuffix = () => randomUUID().slice(0, 8);

export async function createTestEnvironment(name = `Test ${uniqueSuffix()}`): Promise<string> {
  const { random, clock } = getContainer();
  const id = newId('env_', random);
  await getEnvironments().create({ id, name, dcr: false, createdAt: new Date(clock.now()).toISOString() });
  return id;
}

let fileEnvironment: Promise<string> | undefined;
/**
 * One environment per test file: the default of createTestClient and createTestUser, so a
 * test user holds the environment of a test client (API-key exchanges re-check it, issue 18).
 */
export const testFileEnvironment = () => (fileEnvironment ??= createTestEnvironment('Test file environment'));

/** A client written straight to the repository (confidential client_credentials unless overridden). */
export async function createTestClient(overrides: Partial<Client> = {}): Promise<Client> {
  const { config, random, clock } = getContainer();
  const client: Client = {
    clientId: `${config.clientIdPrefix}${newId('', random)}`,
    name: 'Test client',
    type: 'confidential',
    environmentId: overrides.environmentId ?? (await testFileEnvironment()),
    redirectUris: [],
    grantTypes: ['client_credentials'],
    scopes: [],
    registrationType: 'static',
    admin: false,
    test: true,
    createdAt: new Date(clock.now()).toISOString(),
    ...overrides,
  };
  // Issuance leaves out scopes the catalog lacks (behaviour ADMIN-18): the catalog holds them, as an admin's grant requires.
  await ensureScopes(...client.scopes);
  await getClientRepository().create(client);
  return client;
}

/** A user holding `environmentIds` (default: this test file's environment, that of every default test client). */
export async function createTestUser(overrides: Partial<User> = {}, environmentIds?: readonly string[]): Promise<User> {
  const { random, clock } = getContainer();
  const user: User = {
    id: newId('usr_', random),
    email: `user-${uniqueSuffix()}@example.test`,
    name: 'Test user',
    admin: false,
    test: true,
    createdAt: new Date(clock.now()).toISOString(),
    ...overrides,
  };
  await getUsers().create(user);
  for (const environmentId of environmentIds ?? [await testFileEnvironment()]) {
    await grantTestEnvironment(user.id, environmentId, user.createdAt);
  }
  return user;
}

export interface TestTokenRequest {
  readonly clientId: string;
  /** Absent for a client_credentials token. */
  readonly sub?: string;
  readonly scopes?: readonly string[];
  readonly resource?: string;
  readonly apiKeyId?: string;
  readonly familyId?: string;
  /** RFC 8176 methods of the sign-in behind a user's token (behaviour MFA-11); absent counts as a password alone. */
  readonly amr?: readonly string[];
}

/** Mints an access token and writes its issued-token record, as a successful token request does. */
export async function issueTestToken(request: TestTokenRequest): Promise<{ token: string; jti: string }> {
  const { config, clock, random } = getContainer();
  const minted = await mintAccessToken(
    {
      clientId: request.clientId,
      sub: request.sub,
      scopes: request.scopes ?? [],
      resource: request.resource,
      apiKeyId: request.apiKeyId,
      amr: request.amr,
    },
    { issuer: config.baseUrl, signer: await getSigner(), clock, random },
  );
  await getTokenStore().recordIssued({
    token: {
      jti: minted.jti,
      clientId: request.clientId,
      ...(request.sub ? { sub: request.sub } : {}),
      ...(request.familyId ? { familyId: request.familyId } : {}),
      ...(request.apiKeyId ? { apiKeyId: request.apiKeyId } : {}),
      expiresAtEpoch: minted.expiresAtEpoch,
    },
    activity: {
      requestType: request.apiKeyId ? 'api key' : request.sub ? 'authorization_code' : 'client_credentials',
      clientId: request.clientId,
      ...(request.sub ? { userId: request.sub } : {}),
      ip: '203.0.113.7',
      success: true,
      durationMs: 1,
      ...attemptOf(clock.now()),
    },
  });
  return { token: minted.accessToken, jti: minted.jti };
}

/** The time fields and id of one activity row written by a test (ActivityRow). */
export function attemptOf(nowMs = Date.now()): { startedAt: string; attemptId: string; at: string } {
  const at = new Date(nowMs).toISOString();
  return { startedAt: at, attemptId: randomUUID(), at };
}

/** An admin API client and a client_credentials token carrying the admin scope. */
export async function adminClientToken(): Promise<{ token: string; client: Client }> {
  const client = await createTestClient({ name: 'Test admin client', admin: true, scopes: [adminScope] });
  const { token } = await issueTestToken({ clientId: client.clientId, scopes: [adminScope] });
  return { token, client };
}

/**
 * An admin user signed in to an ordinary client, with the admin scope granted: with the mailed
 * code, as the default MFA policy (`admins`) asks of an admin (behaviour MFA-1, MFA-11).
 */
export async function adminUserToken(): Promise<{ token: string; user: User; client: Client }> {
  const user = await createTestUser({ admin: true });
  const client = await createTestClient({
    type: 'public',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: ['https://app.example.test/cb'],
    scopes: ['openid', adminScope],
  });
  const { token } = await issueTestToken({
    clientId: client.clientId,
    sub: user.id,
    scopes: ['openid', adminScope],
    amr: passwordAndCodeAmr,
  });
  return { token, user, client };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
