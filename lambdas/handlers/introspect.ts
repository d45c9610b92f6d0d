/**
 * POST /api/token/introspect (RFC 7662, behaviour INTRO-1..INTRO-4), for confidential clients: each may
 * introspect the tokens issued to it, and a client an administrator flagged `introspect_all`
 * (a resource server) every token; anything else is `active: false`. With `resource`, a token
 * minted for another resource is inactive; without it, `aud` is returned for the caller to check.
 * Refresh tokens are always inactive here: they are for the client that holds them, and a
 * resource server has no use for them (RFC 7662 2.2 lets the server choose what it reveals).
 */
import { InvalidTokenError } from '../core/errors';
import { parseResource } from '../core/resource';
import { anyAudience, verifyAccessToken } from '../http/bearer';
import { parseBody, type FormFields } from '../http/body';
import { authenticateRequestClient, requireConfidential } from '../http/client-authentication';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { tokenOperationParams } from '../http/token-params';
import { validate } from '../http/validate';
import { getBearerDependencies } from '../wiring/bearer';
import { getClientAuthDependencies } from '../wiring/client-auth';
import { endpointPaths } from '../core/paths';

export const handler = httpHandler(async (event, container) => {
  const form = parseBody(event, ['form']) as FormFields;
  const params = validate(tokenOperationParams, form);
  const caller = requireConfidential(await authenticateRequestClient(event, form, getClientAuthDependencies(endpointPaths.introspect)));
  const resource = parseResource(params.resource);
  try {
    // Checks signature, issuer, expiry, audience, and that neither the token nor its family was revoked.
    const claims = await verifyAccessToken(params.token, getBearerDependencies(), resource ?? anyAudience);
    // RFC 7662 2.2 / 4: a client learns about its own tokens only, unless an administrator made
    // it a resource server that introspects all (`introspect_all`); otherwise any client could
    // read every user's `sub` and scopes.
    if (claims.client_id !== caller.clientId && !caller.introspectAll) {
      container.log.info('introspection refused', {
        clientId: caller.clientId,
        reason: `token ${claims.jti} belongs to client ${claims.client_id}`,
      });
      return jsonResponse(200, { active: false });
    }
    return jsonResponse(200, {
      active: true,
      scope: claims.scope ?? '',
      client_id: claims.client_id,
      ...(claims.sub ? { sub: claims.sub } : {}),
      aud: claims.aud,
      iss: container.config.baseUrl,
      exp: claims.exp,
      iat: claims.iat,
      jti: claims.jti,
      // RFC 9449 6.2, behaviour INTRO-6: a bound token's key, for a resource server to check the proof against.
      ...(claims.cnf?.jkt ? { cnf: { jkt: claims.cnf.jkt } } : {}),
      token_type: claims.cnf?.jkt ? 'DPoP' : 'Bearer',
    });
  } catch (error) {
    // RFC 7662 2.2: an invalid, expired, revoked or foreign token is just `active: false`.
    if (error instanceof InvalidTokenError) return jsonResponse(200, { active: false });
    throw error;
  }
});
