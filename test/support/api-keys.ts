/**
 * API-key helpers for handler tests: clients, users and admin tokens through the shared
 * fixtures, the key routes and the exchange called as API Gateway would, the outbox
 * folder the local mailer writes to, and what the tables hold afterwards.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutboxMail } from '../../lambdas/adapters/outbox-mailer';
import { handler as createKey } from '../../lambdas/handlers/admin/api-keys-create';
import { handler as listKeys } from '../../lambdas/handlers/admin/api-keys-list';
import { handler as revokeKey } from '../../lambdas/handlers/admin/api-keys-revoke';
import { handler as exchange } from '../../lambdas/handlers/api-key-token';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { callAdmin } from './admin-calls';
import { apiGatewayEvent, jsonBody, lambdaContext } from './events';

/**
 * Points the local mailer at a fresh outbox folder for this test file. Call at module
 * load, before any handler builds its mailer (the wiring reads MAIL_OUTBOX_DIR once).
 */
export function useOutbox(): string {
  const dir = join(mkdtempSync(join(process.env.TEST_TMP_DIR!, 'outbox-')), 'outbox');
  process.env.MAIL_OUTBOX_DIR = dir;
  return dir;
}

export function outboxMails(dir: string): OutboxMail[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as OutboxMail);
}

export interface Result {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly result: APIGatewayProxyResult;
}

const answer = (result: APIGatewayProxyResult): Result => ({
  status: result.statusCode,
  body: result.body ? jsonBody(result) : {},
  result,
});

export const keysPath = (clientId: string) => `/api/admin/clients/${clientId}/api-keys`;

export async function createKeyAs(token: string, clientId: string, body: Record<string, unknown> = {}): Promise<Result> {
  return answer(
    await callAdmin(createKey, { token, method: 'POST', path: keysPath(clientId), pathParameters: { client_id: clientId }, body }),
  );
}

export async function listKeysAs(token: string, clientId: string, query: Record<string, string> = {}): Promise<Result> {
  return answer(await callAdmin(listKeys, { token, path: keysPath(clientId), pathParameters: { client_id: clientId }, query }));
}

export async function revokeKeyAs(token: string, clientId: string, keyId: string): Promise<Result> {
  return answer(
    await callAdmin(revokeKey, {
      token,
      method: 'DELETE',
      path: `${keysPath(clientId)}/${keyId}`,
      pathParameters: { client_id: clientId, key_id: keyId },
    }),
  );
}

export interface ExchangeCall {
  /** Sent as `Authorization: Bearer <key>`. */
  readonly bearer?: string;
  readonly headers?: Record<string, string>;
  /** Form fields (default) or a JSON object. */
  readonly fields?: Record<string, string>;
  readonly json?: boolean;
  readonly rawBody?: string;
  readonly sourceIp?: string;
}

export async function exchangeKey(call: ExchangeCall): Promise<Result> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.bearer !== undefined) headers.Authorization = `Bearer ${call.bearer}`;
  let body: string | undefined = call.rawBody;
  if (call.fields) {
    headers['Content-Type'] ??= call.json ? 'application/json' : 'application/x-www-form-urlencoded';
    body = call.json ? JSON.stringify(call.fields) : new URLSearchParams(call.fields).toString();
  }
  const event = apiGatewayEvent({
    method: 'POST',
    path: '/api/token/api-key',
    headers,
    ...(body !== undefined ? { body } : {}),
    sourceIp: call.sourceIp,
  });
  return answer(await exchange(event, lambdaContext));
}

export const storedKey = (keyId: string) => getApiKeyStore().get(keyId);
export const auditOf = (clientId: string) => getApiKeyStore().auditOf(clientId);
export const keyActivityOf = async (clientId: string) =>
  (await getTokenStore().activityOf(clientId)).filter((r) => r.requestType === 'api key');
