/**
 * POST /api/token/api-key (behaviour KEYX-1): an API key for a one-hour access token. Every
 * attempt writes one activity row (request type `api key`): in the same batch as the
 * token record on success, alone with the real reason on failure.
 */
import { exchangeApiKey } from '../core/api-keys/exchange';
import { TokenRequestActivity } from '../core/grants/activity';
import { metricNames } from '../core/metrics';
import { recordFailure } from '../http/activity-log';
import { errorCodeOf } from '../http/errors';
import { labelClient } from '../http/request-context';
import { apiKeyExchangeRequest } from '../http/api-key-request';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { getApiKeyExchange } from '../wiring/api-key-exchange';
import { getTokenStore } from '../wiring/repositories';

export const handler = httpHandler(async (event, container) => {
  // The client IP is API Gateway's view of the peer, never a forwarded header.
  const activity = new TokenRequestActivity(
    event.requestContext?.identity?.sourceIp ?? 'unknown',
    container.clock,
    container.random,
    labelClient,
  );
  activity.ofType('api key');
  try {
    const response = await exchangeApiKey(apiKeyExchangeRequest(event), activity, await getApiKeyExchange());
    container.metrics.count(metricNames.apiKeyExchanged);
    return jsonResponse(200, response);
  } catch (error) {
    container.metrics.count(metricNames.apiKeyExchangeRefused, { error: errorCodeOf(error) });
    await recordFailure(activity, error, container.log, (row) => getTokenStore().recordActivity(row));
    throw error;
  }
});
