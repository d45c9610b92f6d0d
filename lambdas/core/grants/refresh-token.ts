/**
 * The refresh_token grant (RFC 6749 6, OAuth 2.1 4.3, RFC 9700 4.14.2): every use rotates
 * the token; a rotated token used again revokes its whole family; the user's environment
 * access is re-checked every time (behaviour REFRESH-5), and so are the password and the MFA policy
 * the sign-in is held to (behaviour RESET-12, REFRESH-6); scopes may narrow (never widen) and the
 * resource binding carries over (RFC 8707 2.2).
 */
import * as z from 'zod/mini';
import type { ProvenKey } from '../dpop';
import { InvalidGrantError } from '../errors';
import type { Client, RefreshToken, User } from '../model';
import { confirmResource } from '../resource';
import { narrowScopes, parseScope } from '../scope';
import { mintAccessToken } from '../tokens';
import type { TokenRequestActivity } from './activity';
import { formField, type GrantDependencies, type GrantImplementation } from './grant';
import { tokenResponse, type TokenResponse } from './response';
import { settle } from './reuse';
import { passwordChangedSince, requireSecondFactorIfAsked, signedInBeforeCutoff } from './sign-in-checks';
import { requireUserAccess } from './user-access';
import { epochSeconds, invalidGrantOf, live, newRefreshToken, stillGranted } from './user-tokens';

export interface RefreshGrantRequest {
  readonly refreshToken: string;
  readonly scope?: string;
  readonly resource?: string;
}

const invalidRefresh = invalidGrantOf('The refresh token is invalid, expired, revoked, or was issued to another client.');

async function revokeForReuse(familyId: string, nowEpoch: number, deps: GrantDependencies, how: string): Promise<never> {
  await deps.store.revokeFamily(familyId, nowEpoch);
  throw invalidRefresh(`refresh token reused (${how}); family ${familyId} revoked`);
}

/**
 * Family still live, user still exists and holds the environment, and the password is still the
 * one of the sign-in; a lost grant or a password change ends the family. Returns the user.
 */
async function checkGrantStillValid(found: RefreshToken, client: Client, nowEpoch: number, deps: GrantDependencies): Promise<User> {
  const [revoked, access] = await Promise.all([
    deps.store.isFamilyRevoked(found.familyId),
    requireUserAccess(found.userId, client, deps).then(
      (user) => user,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ),
  ]);
  if (revoked) throw invalidRefresh(`family ${found.familyId} revoked`);
  if (access instanceof Error) {
    // Only a refusal is a fact (user gone, environment ungranted); a read that failed is not:
    // it changes nothing and the client may retry (behaviour REFRESH-5).
    if (!(access instanceof InvalidGrantError)) throw access;
    // Revoked so that a later re-grant does not revive this sign-in: the user signs in again.
    await deps.store.revokeFamily(found.familyId, nowEpoch);
    throw access;
  }
  if (passwordChangedSince(found, access)) {
    // Behaviour RESET-12: a fact read from the user record. The password change revokes the user's
    // families through an eventually consistent index (RESET-7), which may not have shown this one.
    await deps.store.revokeFamily(found.familyId, nowEpoch);
    throw invalidRefresh(`password changed since the sign-in; family ${found.familyId} revoked`);
  }
  return access;
}

export async function refreshTokenGrant(
  client: Client,
  request: RefreshGrantRequest,
  activity: TokenRequestActivity,
  deps: GrantDependencies,
  proven?: ProvenKey,
): Promise<TokenResponse> {
  const nowEpoch = epochSeconds(deps.clock.now());
  const requested = parseScope(request.scope);
  const found = await live(deps.store.getRefreshToken(request.refreshToken, nowEpoch), nowEpoch, () =>
    invalidRefresh('unknown or expired refresh token'),
  );
  activity.forUser(found.userId);
  if (found.clientId !== client.clientId) throw invalidRefresh(`refresh token issued to client ${found.clientId}`);
  // RFC 9449 5, behaviour REFRESH-8: before reuse detection, so a thief without the key can neither
  // use a bound token nor end its family by replaying a rotated one; nothing is revoked.
  if (found.dpopJkt !== undefined && proven?.jkt !== found.dpopJkt) {
    throw invalidRefresh(
      proven ? 'DPoP proof key differs from the key the refresh token is bound to' : 'no DPoP proof for a DPoP-bound refresh token',
    );
  }
  // Behaviour OPS-7: before the restore's cutoff, as if the token did not exist; nothing revoked.
  if (signedInBeforeCutoff(found, deps.signInsNotBefore)) throw invalidRefresh('sign-in before SIGN_INS_NOT_BEFORE');
  if (found.rotatedAtEpoch !== undefined) await revokeForReuse(found.familyId, nowEpoch, deps, 'already rotated');
  const scopes = narrowScopes(requested, stillGranted(found.scopes, client));
  const resource = confirmResource(request.resource, found.resource);
  const user = await checkGrantStillValid(found, client, nowEpoch, deps);
  // Behaviour REFRESH-6, MFA-9: refused while the policy asks for a factor the sign-in lacked; not revoked.
  await requireSecondFactorIfAsked(found, user, deps);

  // Behaviour MFA-11: the sign-in's methods travel in every access token of the family.
  const access = await mintAccessToken(
    { clientId: client.clientId, sub: found.userId, scopes, resource, amr: found.amr, jkt: proven?.jkt },
    deps,
  );
  const successor = newRefreshToken(
    {
      clientId: found.clientId,
      userId: found.userId,
      scopes: found.scopes,
      ...(found.resource !== undefined ? { resource: found.resource } : {}),
      authTime: found.authTime,
      ...(found.amr ? { amr: found.amr } : {}),
      ...(found.credentialVersion !== undefined ? { credentialVersion: found.credentialVersion } : {}),
      familyId: found.familyId,
      expiresAtEpoch: found.expiresAtEpoch,
      // RFC 9449 5, behaviour REFRESH-8: a public client's token issued in answer to a DPoP request is bound, from then on.
      ...(found.dpopJkt !== undefined ? { dpopJkt: found.dpopJkt } : proven && client.type === 'public' ? { dpopJkt: proven.jkt } : {}),
    },
    deps.random,
  );
  const outcome = await deps.store.rotateRefreshToken(request.refreshToken, found.familyId, nowEpoch, {
    token: {
      jti: access.jti,
      clientId: client.clientId,
      sub: found.userId,
      familyId: found.familyId,
      expiresAtEpoch: access.expiresAtEpoch,
    },
    activity: activity.row(true),
    refresh: successor,
  });
  if (outcome.kind === 'rotated') return tokenResponse(access, { refreshToken: successor.token });
  if (outcome.kind === 'reused') await revokeForReuse(found.familyId, nowEpoch, deps, 'concurrent rotation');
  // Cancelled for another reason: the family was revoked meanwhile, or a concurrent
  // rotation was still in flight. Re-read to tell them apart.
  const verdict = await settle(async () => {
    const again = await deps.store.getRefreshToken(request.refreshToken, nowEpoch);
    if (!again) return 'gone';
    if (again.rotatedAtEpoch !== undefined) return 'reused' as const;
    return (await deps.store.isFamilyRevoked(found.familyId)) ? ('revoked' as const) : undefined;
  }, deps.pause);
  if (verdict === 'reused') await revokeForReuse(found.familyId, nowEpoch, deps, 'concurrent rotation');
  throw invalidRefresh(`rotation cancelled (${verdict ?? 'undetermined'})`);
}

/** RFC 6749 6. */
const parameters = z.object({
  refresh_token: formField.required(512),
  scope: formField.optional(2048),
  resource: formField.optional(2048),
});

export const refreshToken: GrantImplementation<typeof parameters> = {
  parameters,
  issue: (client, p, activity, deps, proven) =>
    refreshTokenGrant(client, { refreshToken: p.refresh_token, scope: p.scope, resource: p.resource }, activity, deps, proven),
};
