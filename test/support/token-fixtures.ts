/**
 * Fixtures for the token endpoints: environments, users and clients with unique ids
 * created through the repositories, authorization codes saved directly (as the authorize
 * step would), and helpers to call the handlers as API Gateway does.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseKeySet, publicJwks } from '../../lambdas/adapters/signing/key-set';
import type { Client, GrantType, User } from '../../lambdas/core/model';
import { s256 } from '../../lambdas/core/pkce';
import { handler as introspect } from '../../lambdas/handlers/introspect';
import { handler as token } from '../../lambdas/handlers/token';
import { getClientRepository, getEnvironments, getHasher, getTokenStore, getUsers } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { apiGatewayEvent, jsonBody, lambdaContext } from './events';
import { grantTestEnvironment } from './environments';
import { ensureScopes } from './admin-calls';

export const issuer = () => process.env.BASE_URL!;
export const redirectUri = 'https://app.example.test/callback';
export const resourceA = 'https://mcp-a.example.test/mcp';
export const resourceB = 'https://mcp-b.example.test/mcp';
export const unique = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;
const nowIso = () => new Date().toISOString();
const nowEpoch = () => Math.floor(Date.now() / 1000);

export async function createEnvironment(): Promise<string> {
  const id = unique('env_t');
  await getEnvironments().create({ id, name: id, dcr: false, createdAt: nowIso() });
  return id;
}

export async function createUser(environmentIds: readonly string[], overrides: Partial<User> = {}): Promise<User> {
  const id = unique('usr_t');
  const user: User = { id, email: `${id}@example.test`, name: `User ${id}`, admin: false, test: false, createdAt: nowIso(), ...overrides };
  await getUsers().create(user);
  for (const environmentId of environmentIds) await grantTestEnvironment(id, environmentId, nowIso());
  return user;
}

export interface TestClient {
  readonly client: Client;
  /** The plain secret of a confidential client. */
  readonly secret?: string;
}

export interface ClientOptions {
  readonly environmentId: string;
  readonly type?: 'public' | 'confidential';
  readonly grantTypes?: readonly GrantType[];
  readonly scopes?: readonly string[];
  /** A resource server that may introspect every token (admin API `introspect_all`). */
  readonly introspectAll?: boolean;
}

export async function createClient(options: ClientOptions): Promise<TestClient> {
  const type = options.type ?? 'public';
  const secret = type === 'confidential' ? randomBytes(32).toString('base64url') : undefined;
  const client: Client = {
    clientId: unique('tgc_'),
    name: 'Test client',
    type,
    ...(secret ? { secretHash: await getHasher().hash(secret) } : {}),
    environmentId: options.environmentId,
    redirectUris: [redirectUri],
    grantTypes: options.grantTypes ?? ['authorization_code', 'refresh_token'],
    scopes: options.scopes ?? ['openid', 'profile', 'email', 'read', 'write'],
    registrationType: 'static',
    admin: false,
    test: false,
    ...(options.introspectAll ? { introspectAll: true } : {}),
    createdAt: nowIso(),
  };
  // Issuance leaves out scopes the catalog lacks (behaviour ADMIN-18): the catalog holds them, as an admin's grant requires.
  await ensureScopes(...client.scopes);
  await getClientRepository().create(client);
  return { client, secret };
}

export interface CodeOptions {
  readonly scopes?: readonly string[];
  readonly resource?: string;
  readonly nonce?: string;
  readonly expiresInSeconds?: number;
}

/** Saves a code as the authorization step would, with an S256 challenge (RFC 7636 4.2). */
export async function issueCode(client: Client, user: User, options: CodeOptions = {}): Promise<{ code: string; verifier: string }> {
  const code = randomBytes(32).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  await getTokenStore().saveCode(code, {
    clientId: client.clientId,
    userId: user.id,
    scopes: options.scopes ?? ['openid', 'profile', 'email', 'read'],
    ...(options.resource ? { resource: options.resource } : {}),
    authTime: nowEpoch(),
    redirectUri,
    codeChallenge: s256(verifier),
    ...(options.nonce ? { nonce: options.nonce } : {}),
    expiresAtEpoch: nowEpoch() + (options.expiresInSeconds ?? 300),
  });
  return { code, verifier };
}

export const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export interface FormCall {
  readonly headers?: Record<string, string>;
  readonly sourceIp?: string;
  /** Raw body instead of form fields (malformed input). */
  readonly body?: string;
}

export function formEvent(path: string, fields: Record<string, string>, call: FormCall = {}) {
  return apiGatewayEvent({
    method: 'POST',
    path,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...call.headers },
    body: call.body ?? new URLSearchParams(fields).toString(),
    sourceIp: call.sourceIp,
  });
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly result: APIGatewayProxyResult;
}

const answer = (result: APIGatewayProxyResult): Answer => ({
  status: result.statusCode,
  body: result.body ? jsonBody(result) : {},
  result,
});

export async function postToken(fields: Record<string, string>, call: FormCall = {}): Promise<Answer> {
  return answer(await token(formEvent('/api/token', fields, call), lambdaContext));
}

/** The code grant of a public client (client_id + code_verifier, behaviour TOKEN-3). */
export async function redeem(client: Client, code: { code: string; verifier: string }, extra: Record<string, string> = {}) {
  return postToken({
    grant_type: 'authorization_code',
    client_id: client.clientId,
    code: code.code,
    code_verifier: code.verifier,
    redirect_uri: redirectUri,
    ...extra,
  });
}

export async function refresh(client: Client, refreshToken: string, extra: Record<string, string> = {}) {
  return postToken({ grant_type: 'refresh_token', client_id: client.clientId, refresh_token: refreshToken, ...extra });
}

/** Signs a user in to a public client through a saved code: the token response body. */
export async function signedIn(client: Client, user: User, options: CodeOptions = {}): Promise<Record<string, unknown>> {
  const result = await redeem(client, await issueCode(client, user, options));
  if (result.status !== 200) throw new Error(`code redemption failed: ${JSON.stringify(result.body)}`);
  return result.body;
}

/** Introspects with a confidential client's credentials (client_secret_basic). */
export async function introspectWith(caller: TestClient, tokenValue: string, extra: Record<string, string> = {}): Promise<Answer> {
  const event = formEvent(
    '/api/token/introspect',
    { token: tokenValue, ...extra },
    {
      headers: { Authorization: basic(caller.client.clientId, caller.secret!) },
    },
  );
  return answer(await introspect(event, lambdaContext));
}

/** Verifies a JWT as a resource server would: the public keys of the key set in SIGNING_KEY_FILE. */
export async function verifyAsResourceServer(jwt: string, audience: string): Promise<JWTPayload> {
  const set = parseKeySet(readFileSync(process.env.SIGNING_KEY_FILE!, 'utf8'))!;
  const { payload } = await jwtVerify(jwt, createLocalJWKSet(publicJwks(set)), { issuer: issuer(), audience });
  return payload;
}

export const claimsOf = (jwt: unknown) => decodeJwt(String(jwt));

/** What the ephemeral table holds for a client, by kind: token records, refresh tokens, families. */
export async function storedFor(clientId: string): Promise<{ tokenRecords: number; refreshTokens: number; families: number }> {
  const { db, tables } = getStorage();
  const Items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tables.ephemeral,
        FilterExpression: 'clientId = :c',
        ExpressionAttributeValues: { ':c': clientId },
        ExclusiveStartKey: start,
      }),
    );
    Items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  const count = (prefix: string) => Items.filter((i) => String(i.pk).startsWith(prefix)).length;
  return { tokenRecords: count('JTI#'), refreshTokens: count('RT#'), families: count('FAMILY#') };
}

export const activityOf = (clientId: string) => getTokenStore().activityOf(clientId);
