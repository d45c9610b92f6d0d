/**
 * The shared shape of /api/admin/* handlers: the caller is checked before anything else
 * is read (so malformed input from an unauthenticated caller is a 401, not a 400), then
 * the handler parses, calls lambdas/core/admin and shapes the response.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import * as z from 'zod/mini';
import { allowlistMatcher, networkRefusalDescription } from '../core/admin-network';
import { AccessDeniedError, InvalidRequestError, NotFoundError } from '../core/errors';
import type { Container } from './container';
import { requireAdmin, type AdminAuthDependencies, type AdminCaller } from './admin-auth';
import { parseBody } from './body';
import type { Endpoint } from './handler';
import { validate } from './validate';

export type AdminEndpoint = (event: APIGatewayProxyEvent, container: Container, caller: AdminCaller) => Promise<APIGatewayProxyResult>;

/** An admin endpoint behind the caller check (lambdas/wiring/handler.ts `adminHandler` binds the dependencies). */
export function adminEndpoint(endpoint: AdminEndpoint, auth: () => AdminAuthDependencies): Endpoint {
  return async (event, container) => endpoint(event, container, await requireAdmin(event, auth()));
}

/**
 * The API-key routes (behaviour KEYM-1..KEYM-7): besides admin callers, a self-service caller
 * whose token was issued by the client of the path. Its refusal is the same as any other
 * non-admin token's (lambdas/http/admin-auth.ts).
 */
export function clientKeysEndpoint(endpoint: AdminEndpoint, auth: () => AdminAuthDependencies): Endpoint {
  let inAllowlist: ((sourceIp: string | undefined) => boolean) | undefined;
  return async (event, container) => {
    const selfServiceClientId = event.pathParameters?.client_id;
    const caller = await requireAdmin(event, auth(), selfServiceClientId ? { selfServiceClientId } : {});
    // Behaviour EDGE-4: the web ACL lets these routes through from anywhere for end users; an admin
    // caller (admin client or admin user) must come from the allowlisted networks, as on every
    // other admin path. The source is API Gateway's, never a forwarded header (attacker-controlled).
    inAllowlist ??= allowlistMatcher(container.config.adminAllowedCidrs);
    if (caller.kind !== 'self-service' && !inAllowlist(event.requestContext?.identity?.sourceIp)) {
      throw new AccessDeniedError(
        networkRefusalDescription,
        `admin caller from ${event.requestContext?.identity?.sourceIp} outside ADMIN_ALLOWED_CIDRS`,
      );
    }
    return endpoint(event, container, caller);
  };
}

/** A `{name}` segment of the route; API Gateway always supplies it, a direct call may not. */
export function pathParameter(event: Pick<APIGatewayProxyEvent, 'pathParameters'>, name: string): string {
  const value = event.pathParameters?.[name];
  // Nothing stored has a longer id (DynamoDB keys stop at 2048 bytes): not found, never a 500.
  if (!value || Buffer.byteLength(value, 'utf8') > 2000) throw new NotFoundError('No such resource.');
  return value;
}

/** A JSON object body checked against `schema`. */
export function jsonInput<S extends z.ZodMiniType>(event: APIGatewayProxyEvent, schema: S): z.output<S> {
  return validate(schema, parseBody(event, ['json']));
}

const pageQuery = z.object({
  limit: z.optional(z.string().check(z.regex(/^[0-9]{1,3}$/, 'must be a whole number from 1 to 100'))),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
});

export interface PageRequest {
  readonly limit: number;
  readonly cursor?: string;
}

/** `?limit=1..100` (default 50) and the opaque `cursor` of a previous page's `next_cursor`. */
export function pageRequest(event: Pick<APIGatewayProxyEvent, 'queryStringParameters'>): PageRequest {
  const query = validate(pageQuery, event.queryStringParameters ?? {});
  const limit = query.limit === undefined ? 50 : Number(query.limit);
  if (limit < 1 || limit > 100) throw new InvalidRequestError('limit: must be a whole number from 1 to 100');
  return { limit, ...(query.cursor ? { cursor: query.cursor } : {}) };
}

/** 204 for deletions and revocations: nothing to say, and nothing cacheable. */
export const noContent = (): APIGatewayProxyResult => ({ statusCode: 204, headers: {}, body: '' });
