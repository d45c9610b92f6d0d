/**
 * DELETE /api/admin/clients/{client_id}/api-keys/{key_id} (behaviour KEYM-7, KEY-8): revokes the key
 * (a soft delete) → 200 the key, status `revoked`. Repeating it keeps the first revoked_at.
 * A self-service caller naming another user's key gets 404.
 */
import { revokeApiKey } from '../../core/api-keys/list-and-revoke';
import { pathParameter } from '../../http/admin-endpoint';
import { clientKeysHandler } from '../../wiring/admin-handler';
import { keyManagerOf } from '../../http/admin-caller';
import { apiKeyView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getApiKeyAdmin } from '../../wiring/api-keys';

export const handler = clientKeysHandler(async (event, container, caller) => {
  const key = await revokeApiKey(getApiKeyAdmin(), keyManagerOf(caller), {
    clientId: pathParameter(event, 'client_id'),
    keyId: pathParameter(event, 'key_id'),
  });
  return jsonResponse(200, apiKeyView(key, container.clock.now()));
});
