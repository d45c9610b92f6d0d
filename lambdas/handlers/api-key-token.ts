/**
 * POST /api/token/api-key (behaviour KEYX-1): an API key for a one-hour access token. The
 * token-endpoint wrapper keeps its activity row (request type `api key`) and metrics.
 */
import { exchangeApiKey } from '../core/api-keys/exchange';
import { metricNames } from '../core/metrics';
import { apiKeyExchangeRequest } from '../http/api-key-request';
import { getApiKeyExchange } from '../wiring/api-key-exchange';
import { tokenEndpoint } from '../wiring/token-endpoint';

export const handler = tokenEndpoint({
  requestType: 'api key',
  metrics: { issued: metricNames.apiKeyExchanged, refused: metricNames.apiKeyExchangeRefused, byGrant: false },
  issue: async (event, activity) => exchangeApiKey(apiKeyExchangeRequest(event), activity, await getApiKeyExchange()),
});
