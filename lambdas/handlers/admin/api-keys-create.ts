/**
 * POST /api/admin/clients/{client_id}/api-keys (behaviour KEYM-5): `{ userId?, name?, expiresAt?,
 * scopes? }` → 201 the key with `api_key` (the full key) and `secret`, this one time only.
 * Admin callers must name `userId`; self-service callers must not, and are mailed.
 */
import * as z from 'zod/mini';
import { createApiKey } from '../../core/api-keys/create';
import { jsonInput, pathParameter } from '../../http/admin-endpoint';
import { clientKeysHandler } from '../../wiring/admin-handler';
import { displayName, scopeName } from '../../http/admin-schemas';
import { keyManagerOf } from '../../http/admin-caller';
import { apiKeyView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getApiKeyAdmin } from '../../wiring/api-keys';
import { apiKeyCreatedMail } from '../../presentation/mail/templates/api-key-created';
import { getNotifier } from '../../wiring/mail';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = z.strictObject({
  userId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  name: z.optional(displayName),
  expiresAt: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp, e.g. 2030-01-01T00:00:00Z' })),
  scopes: z.optional(z.array(scopeName).check(z.maxLength(100))),
});

export const handler = clientKeysHandler(async (event, container, caller) => {
  const clientId = pathParameter(event, 'client_id');
  const input = jsonInput(event, schema);
  const created = await createApiKey(
    { ...getApiKeyAdmin(), notifier: getNotifier({ 'api-key-created': apiKeyCreatedMail }), issuer: container.config.baseUrl },
    keyManagerOf(caller),
    {
      ...input,
      clientId,
    },
  );
  return jsonResponse(201, { ...apiKeyView(created.key, container.clock.now()), api_key: created.apiKey, secret: created.secret });
});
