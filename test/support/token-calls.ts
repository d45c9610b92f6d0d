/**
 * Calls to the token endpoints as API Gateway makes them (token, introspection), signing in
 * through a saved code, and reading what they stored. The clients, users and codes come from
 * test/support/fixtures.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { readFileSync } from 'node:fs';
import { parseKeySet, publicJwks } from '../../lambdas/adapters/signing/key-set';
import type { Client, User } from '../../lambdas/core/model';
import { handler as introspect } from '../../lambdas/handlers/introspect';
import { handler as token } from '../../lambdas/handlers/token';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';
import { apiGatewayEvent, jsonBody, lambdaContext } from './events';
import { issueCode, redirectUri, type CodeOptions, type TestClient } from './fixtures';

export const issuer = () => process.env.BASE_URL!;
export const resourceA = 'https://mcp-a.example.test/mcp';
export const resourceB = 'https://mcp-b.example.test/mcp';
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
