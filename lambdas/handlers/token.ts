/**
 * POST /api/token (RFC 6749 3.2, behaviour TOKEN-1, TOKEN-2): form only; the grant type (lambdas/core/grants
 * registry), client authentication, then the grant with its own parameters. The activity row
 * and the metrics are the token-endpoint wrapper's (behaviour TOKEN-5, LOG-1).
 */
import { assertClientMayUse } from '../core/grants/grant-types';
import { grantFor } from '../core/grants/registry';
import { withCatalogScopes } from '../core/scope';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient, presentsClientCredentials } from '../http/client-authentication';
import { tokenRequestParams } from '../http/token-params';
import { validate } from '../http/validate';
import { metricNames } from '../core/metrics';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { getGrantDependencies } from '../wiring/grants';
import { getStorage } from '../wiring/storage';
import { tokenEndpoint } from '../wiring/token-endpoint';

export const handler = tokenEndpoint(
  {
    metrics: { issued: metricNames.tokenIssued, refused: metricNames.tokenRefused, byGrant: true },
    async issue(event, activity) {
      const form = parseBody(event, ['form']) as FormFields;
      const grant = grantFor(validate(tokenRequestParams, form).grant_type);
      activity.ofType(grant.type);
      // RFC 7523 2.1: an assertion grant without any client credentials (behaviour JWTB-1).
      if (grant.issueWithoutClient && !presentsClientCredentials(event, form)) {
        return grant.issueWithoutClient(validate(grant.parameters, form), activity, await getGrantDependencies());
      }
      const authenticated = await authenticateRequestClient(event, form, getClientAuthDependencies(), (found) => activity.forClient(found));
      assertClientMayUse(authenticated.client, grant.type);
      // A scope deleted from the catalog is issued to no one, whatever the client record lists (behaviour ADMIN-18).
      const client = await withCatalogScopes(authenticated.client, getStorage().catalogNames);
      return grant.issue(client, validate(grant.parameters, form), activity, await getGrantDependencies());
    },
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
