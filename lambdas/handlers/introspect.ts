/**
 * POST /api/token/introspect (RFC 7662, spec 4.9), for confidential clients (resource
 * servers). With `resource`, a token minted for another resource is inactive; without it,
 * any valid token of this server is active and its `aud` is returned for the caller to check.
 * Refresh tokens are always inactive here: they are for the client that holds them, and a
 * resource server has no use for them (RFC 7662 2.2 lets the server choose what it reveals).
 */
import { InvalidTokenError } from '../core/errors';
import { parseResource } from '../core/resource';
import { anyAudience, verifyAccessToken } from '../http/bearer';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient, requireConfidential } from '../http/client-authentication';
import { httpHandler } from '../http/handler';
import { jsonResponse } from '../http/response';
import { tokenOperationParams } from '../http/token-params';
import { validate } from '../http/validate';

export const handler = httpHandler(async (event, runtime) => {
  const form = parseBody(event, ['form']) as FormFields;
  const params = validate(tokenOperationParams, form);
  requireConfidential(await authenticateRequestClient(event, form));
  const resource = parseResource(params.resource);
  try {
    // Checks signature, issuer, expiry, audience, and that neither the token nor its family was revoked.
    const claims = await verifyAccessToken(params.token, resource ?? anyAudience);
    return jsonResponse(200, {
      active: true,
      scope: claims.scope ?? '',
      client_id: claims.client_id,
      ...(claims.sub ? { sub: claims.sub } : {}),
      aud: claims.aud,
      iss: runtime.config.baseUrl,
      exp: claims.exp,
      iat: claims.iat,
      jti: claims.jti,
      token_type: 'Bearer',
    });
  } catch (error) {
    // RFC 7662 2.2: an invalid, expired, revoked or foreign token is just `active: false`.
    if (error instanceof InvalidTokenError) return jsonResponse(200, { active: false });
    throw error;
  }
});
