/**
 * POST /api/token (RFC 6749 3.2, behaviour TOKEN-1, TOKEN-2): form only; the grant type (lambdas/core/grants
 * registry), client authentication, then the grant with its own parameters. The activity row
 * and the metrics are the token-endpoint wrapper's (behaviour TOKEN-5, LOG-1).
 */
import { InvalidRequestError } from '../core/errors';
import { assertClientMayUse } from '../core/grants/grant-types';
import { grantFor } from '../core/grants/registry';
import { withCatalogScopes } from '../core/scope';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient, presentsClientCredentials } from '../http/client-authentication';
import { provenKeyOf } from '../http/dpop';
import { tokenRequestParams } from '../http/token-params';
import { validate } from '../http/validate';
import { metricNames } from '../core/metrics';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { getTokenEndpointDpop } from '../wiring/token-dpop';
import { getGrantDependencies } from '../wiring/grants';
import { getStorage } from '../wiring/storage';
import { tokenEndpoint } from '../wiring/token-endpoint';

export const handler = tokenEndpoint(
  {
    metrics: { issued: metricNames.tokenIssued, refused: metricNames.tokenRefused, byGrant: true },
    async issue(event, activity, container) {
      const form = parseBody(event, ['form']) as FormFields;
      const grant = grantFor(validate(tokenRequestParams, form).grant_type);
      activity.ofType(grant.type);
      // RFC 7523 2.1: an assertion grant without any client credentials (behaviour JWTB-1).
      if (grant.issueWithoutClient && !presentsClientCredentials(event, form)) {
        return grant.issueWithoutClient(validate(grant.parameters, form), activity, await getGrantDependencies());
      }
      const authenticated = await authenticateRequestClient(event, form, getClientAuthDependencies(), (found) => activity.forClient(found));
      assertClientMayUse(authenticated.client, grant.type);
      // Behaviour TOKEN-7: after client authentication, so an unknown caller's proof uses up no jti.
      const proven = await provenKeyOf(event, container.config.baseUrl, await getTokenEndpointDpop());
      // RFC 9449 5.2, behaviour TOKEN-9: a missing proof is a missing part of the request (RFC 6749 5.2), not an invalid proof.
      if (authenticated.client.dpopBoundAccessTokens && !proven) {
        throw new InvalidRequestError(
          'This client must send a DPoP proof with every token request.',
          'dpop_bound_access_tokens client without a DPoP proof',
        );
      }
      // A scope deleted from the catalog is issued to no one, whatever the client record lists (behaviour ADMIN-18).
      const client = await withCatalogScopes(authenticated.client, getStorage().catalogNames);
      return grant.issue(client, validate(grant.parameters, form), activity, await getGrantDependencies(), proven);
    },
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
