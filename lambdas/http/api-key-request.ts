/**
 * The inputs of POST /api/token/api-key (behaviour KEYX-2): the key from `Authorization: Bearer`
 * or an `api_key` field of a form or JSON body; the header wins when both are present.
 * Any Authorization header counts as the presented credential, so a malformed one fails
 * as a bad key (the uniform 401), never falling back to the body.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import type { ApiKeyExchangeRequest } from '../core/api-keys/exchange';
import { header, parseBody } from './body';
import { validate } from './validate';

/** Optional; bounds far above a real value (a key is 64 characters), keeping activity rows small. */
const optional = (max: number) => z.optional(z.string().check(z.maxLength(max)));
/** The body fields besides `api_key`; exported for the OpenAPI document (bin/openapi.ts). */
export const apiKeyExchangeFields = z.object({ scope: optional(2048), resource: optional(2048) });

/** Behaviour KEYX-3: a malformed key, wherever it is, fails like any other bad key; never a 400 of its own. */
function presentedBodyKey(body: unknown): string | undefined {
  const value = (body as { api_key?: unknown } | undefined)?.api_key;
  if (value === undefined) return undefined;
  return typeof value === 'string' && value.length <= 512 ? value : '';
}

export function apiKeyExchangeRequest(event: APIGatewayProxyEvent): ApiKeyExchangeRequest {
  const parsed = event.body ? parseBody(event, ['form', 'json']) : undefined;
  const body: { api_key?: string; scope?: string; resource?: string } = parsed
    ? { ...validate(apiKeyExchangeFields, { ...(parsed as object), api_key: undefined }), api_key: presentedBodyKey(parsed) }
    : {};
  const authorization = header(event, 'authorization');
  const fromHeader = authorization === undefined ? undefined : (/^Bearer +(\S{1,512})\s*$/i.exec(authorization)?.[1] ?? '');
  return { apiKey: fromHeader ?? body.api_key, scope: body.scope, resource: body.resource };
}
