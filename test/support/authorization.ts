/**
 * Test data and browser-like helpers for the sign-in and authorization handler tests:
 * unique users, environments and clients written through the repositories, PKCE pairs,
 * and cookie handling as a browser would do it.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Client, User } from '../../lambdas/core/model';
import { s256 } from '../../lambdas/core/pkce';
import { getClientRepository, getHasher, getUsers } from '../../lambdas/wiring/repositories';
import { headerOf } from './events';
import { grantTestEnvironment } from './environments';
import { ensureScopes } from './admin-calls';

export const unique = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 16)}`;

export interface TestUser {
  readonly user: User;
  readonly password: string;
}

export async function createUser(environmentIds: readonly string[], name = 'Test User'): Promise<TestUser> {
  const users = getUsers();
  const hasher = getHasher();
  const password = randomBytes(12).toString('base64url');
  const id = unique('usr_');
  const user: User = {
    id,
    email: `${id}@example.test`,
    name,
    passwordHash: await hasher.hash(password),
    admin: false,
    test: true,
    createdAt: new Date().toISOString(),
  };
  await users.create(user);
  for (const environmentId of environmentIds) await grantTestEnvironment(id, environmentId, user.createdAt);
  return { user, password };
}

export async function createClient(overrides: Partial<Client> = {}): Promise<Client> {
  const client: Client = {
    clientId: unique('tgc_'),
    name: 'Test App',
    type: 'public',
    environmentId: unique('env_'),
    redirectUris: ['https://app.example.test/callback'],
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'profile', 'email'],
    registrationType: 'static',
    admin: false,
    test: true,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
  // Issuance leaves out scopes the catalog lacks (behaviour ADMIN-18): the catalog holds them, as an admin's grant requires.
  await ensureScopes(...client.scopes);
  await getClientRepository().create(client);
  return client;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** A complete, valid authorization request for `client`, with overrides (undefined removes a parameter). */
export function authorizeQuery(client: Client, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0],
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    scope: 'openid profile',
    state: 'xyz-state',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}

/** `name=value` of the Set-Cookie in a response, as the browser would send it back. */
export function cookieOf(result: APIGatewayProxyResult): string {
  const setCookie = headerOf(result, 'set-cookie');
  if (!setCookie) throw new Error(`no Set-Cookie in a ${result.statusCode} response`);
  return setCookie.split(';')[0]!;
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** What a current browser sends with a form posted from one of our pages (extra: undefined removes a header). */
export const browserHeaders = (extra: Record<string, string | undefined> = {}): Record<string, string> => {
  const headers: Record<string, string | undefined> = {
    Accept: 'text/html,application/xhtml+xml',
    'Content-Type': 'application/x-www-form-urlencoded',
    'Sec-Fetch-Site': 'same-origin',
    Origin: process.env.BASE_URL!,
    ...extra,
  };
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
};

/** The value of a hidden input in a rendered form. */
export function hiddenField(body: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
  if (!match) throw new Error(`no hidden field ${name}`);
  return match[1]!;
}

export function locationOf(result: APIGatewayProxyResult): URL {
  const location = headerOf(result, 'location');
  if (!location) throw new Error(`no Location in a ${result.statusCode} response`);
  return new URL(location);
}
