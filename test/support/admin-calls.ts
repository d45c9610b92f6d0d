/** Calls admin handlers directly with an API Gateway event, as Lambda would. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { DynamoScopeRepository } from '../../lambdas/adapters/dynamodb/scope-repository';
import type { AdminAuditEntry } from '../../lambdas/core/model';
import { handler as updateUserHandler } from '../../lambdas/handlers/admin/users-update';
import type { LambdaHandler } from '../../lambdas/http/handler';
import { routes } from '../../lambdas/routes';
import { getStorage } from '../../lambdas/wiring/storage';
import { apiGatewayEvent, lambdaContext } from './events';

export interface AdminCall {
  readonly token?: string;
  readonly method?: string;
  readonly path?: string;
  readonly pathParameters?: Record<string, string>;
  readonly query?: Record<string, string>;
  /** Sent as JSON unless it is already a string. */
  readonly body?: unknown;
}

/**
 * The admin row whose handler this is, with the call's method: the event's `resource` is then the
 * row's path template, as API Gateway sends it, so the request is told apart from the other rows
 * (its log line, and the storage access recorded for it: test/support/record-storage-access.ts).
 */
function adminRowOf(handler: LambdaHandler, method: string) {
  return routes.find(
    (route) =>
      route.method === method &&
      route.handler.startsWith('admin/') &&
      (require(`../../lambdas/handlers/${route.handler}`) as { handler: unknown }).handler === handler,
  );
}

export function callAdmin(handler: LambdaHandler, call: AdminCall = {}): Promise<APIGatewayProxyResult> {
  const method = call.method ?? 'GET';
  const row = adminRowOf(handler, method);
  const headers: Record<string, string> = {};
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  return handler(
    apiGatewayEvent({
      method,
      path: call.path ?? row?.path ?? '/api/admin/x',
      ...(row ? { resource: row.path } : {}),
      headers,
      ...(call.pathParameters ? { pathParameters: call.pathParameters } : {}),
      ...(call.query ? { query: call.query } : {}),
      ...(call.body !== undefined ? { body: typeof call.body === 'string' ? call.body : JSON.stringify(call.body) } : {}),
    }),
    lambdaContext,
  );
}

/** The catalog scopes the seed would have written; idempotent. */
export async function ensureScopes(...names: string[]): Promise<void> {
  const { db, tables } = getStorage();
  const repository = new DynamoScopeRepository(db, tables.main);
  await Promise.all(names.map((name) => repository.createScope({ name, description: name, discoverable: name !== 'admin' })));
}

/** The actor of admin changes a test makes through the core directly (behaviour LOG-9 audits every one). */
export const testAdminActor = { kind: 'admin-client', clientId: 'tgc_test' } as const;

/** The admin audit entries stored in one partition (`AUDIT#USER#<id>`, `AUDIT#<clientId>`, `AUDIT#SITE`), read strongly consistently. */
export async function auditPartition(partition: string): Promise<AdminAuditEntry[]> {
  const { db, tables } = getStorage();
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tables.activity,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ConsistentRead: true,
    }),
  );
  return Items as AdminAuditEntry[];
}

/** An administrator sets a user's password through the admin API (PATCH /api/admin/users/{user_id}). */
export function setPasswordAsAdmin(token: string, userId: string, password: string): Promise<APIGatewayProxyResult> {
  return callAdmin(updateUserHandler, {
    token,
    method: 'PATCH',
    path: `/api/admin/users/${userId}`,
    pathParameters: { user_id: userId },
    body: { password },
  });
}
