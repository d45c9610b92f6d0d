/**
 * POST /api/token (RFC 6749 3.2, behaviour TOKEN-1, TOKEN-2): form only; the grant type (lambdas/core/grants
 * registry), client authentication, then the grant with its own parameters. Every request,
 * success or failure, writes one activity row (behaviour TOKEN-5, LOG-1): inside the issuance write on
 * success, alone here on failure.
 */
import { TokenRequestActivity } from '../core/grants/activity';
import { assertClientMayUse, grantFor } from '../core/grants/registry';
import { metricNames } from '../core/metrics';
import { recordFailure } from '../http/activity-log';
import { errorCodeOf } from '../http/errors';
import { labelClient } from '../http/request-context';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient } from '../http/client-authentication';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { tokenRequestParams } from '../http/token-params';
import { validate } from '../http/validate';
import { getGrantDependencies } from '../wiring/grants';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { getTokenStore } from '../wiring/repositories';
import { getStorage } from '../wiring/storage';
import { withCatalogScopes } from '../core/scope';

export const handler = httpHandler(
  async (event, container) => {
    // The client IP is API Gateway's view of the peer, never a forwarded header (a header is the caller's to forge).
    const activity = new TokenRequestActivity(
      event.requestContext?.identity?.sourceIp ?? 'unknown',
      container.clock,
      container.random,
      labelClient,
    );
    let grantType = 'unknown';
    try {
      const form = parseBody(event, ['form']) as FormFields;
      const grant = grantFor(validate(tokenRequestParams, form).grant_type);
      grantType = grant.type;
      activity.ofType(grant.type);
      const authenticated = await authenticateRequestClient(event, form, getClientAuthDependencies(), (found) => activity.forClient(found));
      assertClientMayUse(authenticated.client, grant.type);
      // A scope deleted from the catalog is issued to no one, whatever the client record lists (behaviour ADMIN-18).
      const client = await withCatalogScopes(authenticated.client, getStorage().catalogNames);
      const response = await grant.issue(client, validate(grant.parameters, form), activity, await getGrantDependencies());
      container.metrics.count(metricNames.tokenIssued, { grant: grantType });
      return jsonResponse(200, response);
    } catch (error) {
      container.metrics.count(metricNames.tokenRefused, { grant: grantType, error: errorCodeOf(error) });
      await recordFailure(activity, error, container.log, (row) => getTokenStore().recordActivity(row));
      throw error;
    }
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
