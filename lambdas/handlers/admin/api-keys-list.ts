/**
 * GET /api/admin/clients/{client_id}/api-keys?status&limit&cursor (behaviour KEYM-6, ADMIN-23): the
 * client's keys newest first (a self-service caller: only its own), with status; never a secret or its hash.
 */
import * as z from 'zod/mini';
import { listApiKeys } from '../../core/api-keys/list-and-revoke';
import { pageRequest, pathParameter } from '../../http/admin-endpoint';
import { clientKeysHandler } from '../../wiring/admin-handler';
import { keyManagerOf } from '../../http/admin-caller';
import { apiKeyView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getApiKeyAdmin } from '../../wiring/api-keys';
import { validate } from '../../http/validate';

/** The query; exported for the OpenAPI document (bin/openapi.ts). */
export const filter = z.object({ status: z.optional(z.enum(['active', 'revoked', 'expired'])) });

export const handler = clientKeysHandler(async (event, container, caller) => {
  const clientId = pathParameter(event, 'client_id');
  const { status } = validate(filter, event.queryStringParameters ?? {});
  const { limit, cursor } = pageRequest(event);
  const page = await listApiKeys(getApiKeyAdmin(), keyManagerOf(caller), clientId, limit, cursor, status);
  const now = container.clock.now();
  return jsonResponse(
    200,
    pageView(page, (key) => apiKeyView(key, now)),
  );
});
