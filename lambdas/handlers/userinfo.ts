/**
 * GET /api/userinfo (OIDC Core 5.3, behaviour BEARER-2): a user's token with the `openid` scope;
 * `sub` plus the claims its scopes release (core/user-claims). Errors carry the RFC 6750 3
 * challenge.
 */
import { InsufficientScopeError, InvalidTokenError } from '../core/errors';
import { parseScope } from '../core/scope';
import { userClaims } from '../core/user-claims';
import { dpopChallenge, requireVerifiedBearer } from '../http/bearer';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { getDpopBearerDependencies } from '../wiring/bearer';

/** RFC 6750 3, RFC 9449 7.1: the challenge in the scheme the token came with. */
const challenge = (scheme: 'Bearer' | 'DPoP' | undefined, error: string, extra = '') =>
  scheme === 'DPoP' ? `${dpopChallenge(error)}${extra}` : `Bearer error="${error}"${extra}`;
const invalidToken = (scheme: 'Bearer' | 'DPoP' | undefined, description: string, reason: string) =>
  new InvalidTokenError(description, reason, { headers: { 'WWW-Authenticate': challenge(scheme, 'invalid_token') } });

export const handler = httpHandler(
  async (event) => {
    // The bearer check refuses a token of a sign-in from before a password change (behaviour BEARER-1, BEARER-2).
    const verified = await requireVerifiedBearer(event, getDpopBearerDependencies());
    const { claims } = verified;
    if (!claims.sub)
      throw invalidToken(verified.scheme, 'The access token does not identify a user.', `token of client ${claims.client_id} has no sub`);
    const scopes = parseScope(claims.scope);
    if (!scopes.includes('openid')) {
      throw new InsufficientScopeError('The access token lacks the openid scope.', undefined, {
        headers: { 'WWW-Authenticate': challenge(verified.scheme, 'insufficient_scope', ', scope="openid"') },
      });
    }
    // The bearer check's strongly consistent read (a key-minted token's user is read here).
    const user = await verified.user();
    if (!user) throw invalidToken(verified.scheme, 'The access token does not identify a user.', `user ${claims.sub} no longer exists`);
    return jsonResponse(200, { sub: user.id, ...userClaims(user, scopes) });
  },
  { crossOrigin: true }, // route row flag crossOrigin (behaviour HTTP-6)
);
