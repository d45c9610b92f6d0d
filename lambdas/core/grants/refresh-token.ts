/**
 * The refresh_token grant (RFC 6749 6, OAuth 2.1 4.3, RFC 9700 4.14.2): every use rotates
 * the token; a rotated token used again revokes its whole family; the user's environment
 * access is re-checked every time (behaviour REFRESH-5), and so are the password and the MFA policy
 * the sign-in is held to (behaviour RESET-12, REFRESH-6); scopes may narrow (never widen) and the
 * resource binding carries over (RFC 8707 2.2). Within a grace window, a rotated token presented
 * again gets the successor it got the first time (behaviour REFRESH-7).
 */
import * as z from 'zod/mini';
import { InvalidGrantError } from '../errors';
import type { Client, IssuedToken, RefreshToken, User } from '../model';
import { confirmResource } from '../resource';
import { narrowScopes, parseScope } from '../scope';
import { type MintedAccessToken, mintAccessToken } from '../tokens';
import type { TokenRequestActivity } from './activity';
import { formField, type GrantDependencies, type GrantImplementation } from './grant';
import { tokenResponse, type TokenResponse } from './response';
import { settle } from './reuse';
import { passwordChangedSince, requireSecondFactorIfAsked, signedInBeforeCutoff } from './sign-in-checks';
import { requireUserAccess } from './user-access';
import { epochSeconds, invalidGrantOf, live, newRefreshToken, stillGranted } from './user-tokens';
import type { ProvenKey } from '../dpop';

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
  const found = await live(deps.store.getRefreshToken(request.refreshToken, nowEpoch), nowEpoch, () =>
    invalidRefresh('unknown or expired refresh token'),
  );
  activity.forUser(found.userId);
  if (found.clientId !== client.clientId) throw invalidRefresh(`refresh token issued to client ${found.clientId}`);
  // Behaviour OPS-7: before the restore's cutoff, as if the token did not exist; nothing revoked.
  if (signedInBeforeCutoff(found, deps.signInsNotBefore)) throw invalidRefresh('sign-in before SIGN_INS_NOT_BEFORE');
  // RFC 9449 5, behaviour REFRESH-8: before reuse detection and the grace window, so a thief without
  // the key can neither use a bound token nor end its family by replaying a rotated one; nothing is revoked.
  if (found.dpopJkt !== undefined && proven?.jkt !== found.dpopJkt) {
    throw invalidRefresh(
      proven ? 'DPoP proof key differs from the key the refresh token is bound to' : 'no DPoP proof for a DPoP-bound refresh token',
    );
  }
  if (found.rotatedAtEpoch !== undefined) {
    return replayWithinGrace(found, client, request, activity, deps, nowEpoch, 'already rotated', proven);
  }
  const access = await checkedAccessToken(found, client, request, deps, nowEpoch, proven);
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
  const window = graceWindowOf(client, deps);
  const outcome = await deps.store.rotateRefreshToken(
    request.refreshToken,
    found.familyId,
    nowEpoch,
    { token: issuedTokenOf(access, found), activity: activity.row(true), refresh: successor },
    window > 0 ? { untilEpoch: nowEpoch + window } : undefined,
  );
  if (outcome.kind === 'rotated') return tokenResponse(access, { refreshToken: successor.token });
  // Behaviour REFRESH-7: the loser of a race within the window gets the winner's successor.
  const replay = () => replayWithinGrace(found, client, request, activity, deps, nowEpoch, 'concurrent rotation', proven, access);
  if (outcome.kind === 'reused') return replay();
  // Cancelled for another reason: the family was revoked meanwhile, or a concurrent
  // rotation was still in flight. Re-read to tell them apart.
  const verdict = await settle(async () => {
    const again = await deps.store.getRefreshToken(request.refreshToken, nowEpoch);
    if (!again) return 'gone';
    if (again.rotatedAtEpoch !== undefined) return 'reused' as const;
    return (await deps.store.isFamilyRevoked(found.familyId)) ? ('revoked' as const) : undefined;
  }, deps.pause);
  if (verdict === 'reused') return replay();
  throw invalidRefresh(`rotation cancelled (${verdict ?? 'undetermined'})`);
}

/**
 * The checks every use of a live grant passes, then its new access token: scope and resource
 * (behaviour REFRESH-4), the family and the user (REFRESH-3, REFRESH-5), the MFA policy (REFRESH-6).
 */
async function checkedAccessToken(
  found: RefreshToken,
  client: Client,
  request: RefreshGrantRequest,
  deps: GrantDependencies,
  nowEpoch: number,
  proven: ProvenKey | undefined,
): Promise<MintedAccessToken> {
  const scopes = narrowScopes(parseScope(request.scope), stillGranted(found.scopes, client));
  const resource = confirmResource(request.resource, found.resource);
  const user = await checkGrantStillValid(found, client, nowEpoch, deps);
  // Behaviour REFRESH-6, MFA-9: refused while the policy asks for a factor the sign-in lacked; not revoked.
  await requireSecondFactorIfAsked(found, user, deps);
  // Behaviour MFA-11: the sign-in's methods travel in every access token of the family.
  return mintAccessToken({ clientId: client.clientId, sub: found.userId, scopes, resource, amr: found.amr, jkt: proven?.jkt }, deps);
}

const issuedTokenOf = (access: MintedAccessToken, found: RefreshToken): IssuedToken => ({
  jti: access.jti,
  clientId: found.clientId,
  sub: found.userId,
  familyId: found.familyId,
  expiresAtEpoch: access.expiresAtEpoch,
});

/**
 * Behaviour REFRESH-7: the client's own window, else the server's; 0 turns it off. Its end is
 * fixed at rotation and kept with the successor; turning the window off ends open ones at once.
 */
const graceWindowOf = (client: Client, deps: GrantDependencies): number => client.refreshGraceSeconds ?? deps.refreshGraceSeconds ?? 0;

/**
 * A rotated token presented again (behaviour REFRESH-2, REFRESH-7). Within the window its rotation
 * kept, it gets the same successor and a new access token: a client whose reply was lost retries and
 * carries on. Otherwise, or once that successor was used (the client has moved on, so whoever holds
 * the old token is not it), it is reuse and the family is revoked. `access`: the token a lost race
 * already minted, after the same checks.
 */
async function replayWithinGrace(
  found: RefreshToken,
  client: Client,
  request: RefreshGrantRequest,
  activity: TokenRequestActivity,
  deps: GrantDependencies,
  nowEpoch: number,
  how: string,
  proven: ProvenKey | undefined,
  access?: MintedAccessToken,
): Promise<TokenResponse> {
  // Turned off (0), off at once: no read for the kept successor.
  const successor = graceWindowOf(client, deps) > 0 ? await deps.store.graceSuccessor(request.refreshToken, nowEpoch) : undefined;
  if (successor === undefined) return revokeForReuse(found.familyId, nowEpoch, deps, how);
  const reissued = access ?? (await checkedAccessToken(found, client, request, deps, nowEpoch, proven));
  const outcome = await deps.store.reissueWithinGrace(successor, found.familyId, {
    token: issuedTokenOf(reissued, found),
    // Behaviour LOG-2: the row says this success was a replay, not a rotation.
    activity: activity.row(true, `rotated refresh token replayed within its grace window (${how}); its successor returned again`),
  });
  if (outcome === 'reissued') return tokenResponse(reissued, { refreshToken: successor });
  if (outcome === 'successor-used') return revokeForReuse(found.familyId, nowEpoch, deps, `${how}, its successor already used`);
  throw invalidRefresh(outcome === 'family-revoked' ? `family ${found.familyId} revoked` : 'grace reissue cancelled (undetermined)');
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
