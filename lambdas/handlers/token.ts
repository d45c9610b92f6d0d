/**
 * POST /api/token (RFC 6749 3.2, spec 4.4): form only; grant type, then client
 * authentication, then the grant. Every request, success or failure, writes one activity
 * row (spec 2.7): inside the issuance write on success, alone here on failure.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { TokenRequestActivity } from '../core/grants/activity';
import { authorizationCodeGrant } from '../core/grants/authorization-code';
import { clientCredentialsGrant } from '../core/grants/client-credentials';
import { assertClientMayUse, parseGrantType } from '../core/grants/grant-type';
import { refreshTokenGrant } from '../core/grants/refresh-token';
import type { TokenResponse } from '../core/grants/response';
import { recordFailure } from '../http/activity-log';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient } from '../http/client-authentication';
import { httpHandler } from '../http/handler';
import { jsonResponse } from '../http/response';
import {
  authorizationCodeParams,
  clientCredentialsParams,
  refreshTokenParams,
  tokenRequestParams,
} from '../http/token-params';
import { validate } from '../http/validate';
import { getRuntime } from '../runtime/base';
import { getGrantDependencies } from '../runtime/grants';
import { getOAuth } from '../runtime/oauth';

async function issue(event: APIGatewayProxyEvent, activity: TokenRequestActivity): Promise<TokenResponse> {
  const form = parseBody(event, ['form']) as FormFields;
  const base = validate(tokenRequestParams, form);
  const grantType = parseGrantType(base.grant_type);
  activity.requestType = grantType;
  const { client } = await authenticateRequestClient(event, form, (found) => activity.forClient(found));
  assertClientMayUse(client, grantType);
  switch (grantType) {
    case 'authorization_code': {
      const p = validate(authorizationCodeParams, form);
      const request = { code: p.code, redirectUri: p.redirect_uri, codeVerifier: p.code_verifier, resource: p.resource };
      const response = await authorizationCodeGrant(client, request, activity, await getGrantDependencies());
      if (client.expiresUnused) await keepDynamicClient(client.clientId);
      return response;
    }
    case 'refresh_token': {
      const p = validate(refreshTokenParams, form);
      const request = { refreshToken: p.refresh_token, scope: p.scope, resource: p.resource };
      return refreshTokenGrant(client, request, activity, await getGrantDependencies());
    }
    case 'client_credentials':
      return clientCredentialsGrant(client, validate(clientCredentialsParams, form), activity, await getGrantDependencies());
  }
}

/** A dynamic client's first tokens: it is in use, so it no longer expires (DCR_CLIENT_EXPIRY_DAYS). */
async function keepDynamicClient(clientId: string): Promise<void> {
  try {
    await getOAuth().clientRepository.markUsed(clientId);
  } catch (error) {
    // The tokens are issued; a later redemption retries this.
    getRuntime().log.warn('dynamic client expiry not cleared', { clientId, cause: error });
  }
}

export const handler = httpHandler(async (event, runtime) => {
  // Spec design: the client IP is API Gateway's view of the peer, never a forwarded header.
  const activity = new TokenRequestActivity(event.requestContext?.identity?.sourceIp ?? 'unknown', runtime.clock, runtime.random);
  try {
    return jsonResponse(200, await issue(event, activity));
  } catch (error) {
    await recordFailure(activity, error, runtime.log);
    throw error;
  }
});
