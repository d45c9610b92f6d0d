/** Calls admin handlers directly with an API Gateway event, as Lambda would. */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { DynamoScopeRepository } from '../../lambdas/adapters/dynamodb/scope-repository';
import type { LambdaHandler } from '../../lambdas/http/handler';
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

export function callAdmin(handler: LambdaHandler, call: AdminCall = {}): Promise<APIGatewayProxyResult> {
  const headers: Record<string, string> = {};
  if (call.token) headers.Authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  return handler(
    apiGatewayEvent({
      method: call.method ?? 'GET',
      path: call.path ?? '/api/admin/x',
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
