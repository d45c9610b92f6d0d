/**
 * The inputs of POST /api/token/api-key (spec 4.5): the key from `Authorization: Bearer`
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
const fields = z.object({ api_key: optional(512), scope: optional(2048), resource: optional(2048) });

export function apiKeyExchangeRequest(event: APIGatewayProxyEvent): ApiKeyExchangeRequest {
  const body = event.body ? validate(fields, parseBody(event, ['form', 'json'])) : {};
  const authorization = header(event, 'authorization');
  const fromHeader = authorization === undefined ? undefined : (/^Bearer +(\S{1,512})\s*$/i.exec(authorization)?.[1] ?? '');
  return { apiKey: fromHeader ?? body.api_key, scope: body.scope, resource: body.resource };
}
