/**
 * POST /api/token/api-key (behaviour KEYX-1): an API key for a one-hour access token. Every
 * attempt writes one activity row (request type `api key`): in the same batch as the
 * token record on success, alone with the real reason on failure.
 */
import { exchangeApiKey } from '../core/api-keys/exchange';
import { TokenRequestActivity } from '../core/grants/activity';
import { recordFailure } from '../http/activity-log';
import { apiKeyExchangeRequest } from '../http/api-key-request';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { getApiKeyExchange } from '../wiring/api-keys';
import { getTokenStore } from '../wiring/repositories';

export const handler = httpHandler(async (event, container) => {
  // The client IP is API Gateway's view of the peer, never a forwarded header.
  const activity = new TokenRequestActivity(event.requestContext?.identity?.sourceIp ?? 'unknown', container.clock, container.random);
  activity.ofType('api key');
  try {
    const response = await exchangeApiKey(apiKeyExchangeRequest(event), activity, await getApiKeyExchange());
    return jsonResponse(200, response);
  } catch (error) {
    await recordFailure(activity, error, container.log, (row) => getTokenStore().recordActivity(row));
    throw error;
  }
});
