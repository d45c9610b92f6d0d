/**
 * POST /api/token/revoke (RFC 7009) for refresh tokens: revoking one ends its whole family
 * (every refresh token of the sign-in and the access tokens it issued). Public clients
 * authenticate with client_id alone (RFC 7009 2.1). Unknown, expired or already revoked
 * tokens answer 200 (2.2); a token of another client is refused (2.1, invalid_grant).
 */
import { InvalidGrantError, UnsupportedTokenTypeError } from '../core/errors';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient } from '../http/client-authentication';
import { httpHandler } from '../wiring/handler';
import { tokenOperationParams } from '../http/token-params';
import { validate } from '../http/validate';
import { getTokenStore } from '../wiring/repositories';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { endpointPaths } from '../core/paths';

/** Access tokens are JWTs (three dot-separated parts); refresh tokens are opaque, without dots. */
const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);

export const handler = httpHandler(
  async (event, container) => {
    const form = parseBody(event, ['form']) as FormFields;
    const params = validate(tokenOperationParams, form);
    const { client } = await authenticateRequestClient(event, form, getClientAuthDependencies(endpointPaths.revoke));
    if (looksLikeJwt(params.token)) {
      // RFC 7009 2.2.1: access tokens are short-lived and not revocable one by one here.
      throw new UnsupportedTokenTypeError('Only refresh tokens can be revoked.', 'access token presented for revocation');
    }
    const tokens = getTokenStore();
    const nowEpoch = Math.floor(container.clock.now() / 1000);
    const found = await tokens.getRefreshToken(params.token, nowEpoch);
    if (found) {
      if (found.clientId !== client.clientId) {
        throw new InvalidGrantError('The token was issued to another client.', `refresh token of client ${found.clientId}`);
      }
      await tokens.revokeFamily(found.familyId, nowEpoch);
    }
    return { statusCode: 200, headers: {}, body: '' };
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
