/**
 * GET /api/admin/clients/{client_id}/api-keys?limit&cursor (behaviour KEYM-6): the client's keys
 * (a self-service caller: only its own), with status; never a secret or its hash.
 */
import { listApiKeys } from '../../core/api-keys/list-and-revoke';
import { pageRequest, pathParameter } from '../../http/admin-endpoint';
import { clientKeysHandler } from '../../wiring/admin-handler';
import { keyManagerOf } from '../../http/admin-caller';
import { apiKeyView, pageView } from '../../presentation/admin-views';
import { jsonResponse } from '../../http/response';
import { getApiKeyAdmin } from '../../wiring/api-keys';

export const handler = clientKeysHandler(async (event, container, caller) => {
  const clientId = pathParameter(event, 'client_id');
  const { limit, cursor } = pageRequest(event);
  const page = await listApiKeys(getApiKeyAdmin(), keyManagerOf(caller), clientId, limit, cursor);
  const now = container.clock.now();
  return jsonResponse(
    200,
    pageView(page, (key) => apiKeyView(key, now)),
  );
});
