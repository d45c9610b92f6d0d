/**
 * GET /api/token/validate (behaviour BEARER-4): a service checks a bearer token of this server
 * (audience: the issuer, like every endpoint of its own) and gets the claims it needs.
 * Resource-bound tokens are checked at the resource with the JWKS, or by introspection
 * with `resource`.
 */
import { requireBearer } from '../http/bearer';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { getDpopBearerDependencies } from '../wiring/bearer';

export const handler = httpHandler(async (event) => {
  const claims = await requireBearer(event, getDpopBearerDependencies());
  return jsonResponse(200, {
    active: true,
    ...(claims.sub ? { sub: claims.sub } : {}),
    client_id: claims.client_id,
    scope: claims.scope ?? '',
    aud: claims.aud,
    exp: claims.exp,
  });
});
