/**
 * The authorization_code grant (RFC 6749 4.1.3, OAuth 2.1 4.1.3, RFC 7636 4.6, RFC 8707 2.2):
 * small named steps, then one transaction that consumes the code and writes everything
 * it issues, so a second redemption cannot also succeed.
 */
import * as z from 'zod/mini';
import type { ProvenKey } from '../dpop';
import { newId } from '../ids';
import { lifetimes } from '../lifetimes';
import type { AuthorizationCode, Client } from '../model';
import { verifyPkce } from '../pkce';
import { confirmResource } from '../resource';
import { mintAccessToken, mintIdToken } from '../tokens';
import { userClaims } from '../user-claims';
import type { TokenRequestActivity } from './activity';
import { formField, type GrantDependencies, type GrantImplementation } from './grant';
import { tokenResponse, type TokenResponse } from './response';
import { familyOfRedeemedCode } from './reuse';
import { passwordChangedSince, requireSecondFactorIfAsked, signedInBeforeCutoff } from './sign-in-checks';
import { requireUserAccess } from './user-access';
import { epochSeconds, invalidGrantOf, live, newRefreshToken, stillGranted } from './user-tokens';

export interface CodeGrantRequest {
  readonly code: string;
  /** May be omitted when the client registered exactly one redirect URI (and so could omit it at authorization). */
  readonly redirectUri?: string;
  readonly codeVerifier: string;
  readonly resource?: string;
}

const invalidCode = invalidGrantOf('The authorization code is invalid, expired, already used, or was issued to another client.');

/** RFC 6749 4.1.2: a code used twice is refused, and what the first use issued is revoked. */
async function refuseReuse(found: AuthorizationCode, nowEpoch: number, deps: GrantDependencies): Promise<void> {
  if (found.familyId === undefined) return;
  await deps.store.revokeFamily(found.familyId, nowEpoch);
  throw invalidCode(`authorization code reused; family ${found.familyId} revoked`);
}

function checkBinding(found: AuthorizationCode, client: Client, request: CodeGrantRequest, proven: ProvenKey | undefined): void {
  if (found.clientId !== client.clientId) throw invalidCode(`code issued to client ${found.clientId}`);
  // RFC 9449 10, behaviour CODE-5: a code bound to a key at authorization is redeemed with that key only.
  if (found.dpopJkt !== undefined && proven?.jkt !== found.dpopJkt) {
    throw invalidCode(
      proven ? 'DPoP proof key differs from the dpop_jkt of the authorization request' : 'no DPoP proof for a code bound by dpop_jkt',
    );
  }
  // OAuth 2.1 4.1.3: when the authorization request named redirect_uri, the token request must
  // repeat the identical value. Omitting it is allowed only when the authorization request did
  // too, which it may only where a single URI is registered.
  if (found.redirectUriNamed && !request.redirectUri) throw invalidCode('redirect_uri omitted, but the authorization request named it');
  const sole = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
  const presented = request.redirectUri || sole;
  if (found.redirectUri !== presented) throw invalidCode('redirect_uri differs from the authorization request');
  if (!verifyPkce(request.codeVerifier, found.codeChallenge)) throw invalidCode('PKCE verification failed');
}

export async function authorizationCodeGrant(
  client: Client,
  request: CodeGrantRequest,
  activity: TokenRequestActivity,
  deps: GrantDependencies,
  proven?: ProvenKey,
): Promise<TokenResponse> {
  const nowEpoch = epochSeconds(deps.clock.now());
  const found = await live(deps.store.getCode(request.code, nowEpoch), nowEpoch, () =>
    invalidCode('unknown or expired authorization code'),
  );
  activity.forUser(found.userId);
  // Behaviour OPS-7: before the restore's cutoff, as if the code did not exist; nothing revoked.
  if (signedInBeforeCutoff(found, deps.signInsNotBefore)) throw invalidCode('sign-in before SIGN_INS_NOT_BEFORE');
  await refuseReuse(found, nowEpoch, deps);
  checkBinding(found, client, request, proven);
  const resource = confirmResource(request.resource, found.resource);
  // The authorization step checked access; checking again closes the window up to redemption.
  const user = await requireUserAccess(found.userId, client, deps);
  // Behaviour RESET-12: a code of a session from before a password change issues nothing.
  if (passwordChangedSince(found, user)) throw invalidCode('password changed since the sign-in of this code');
  // Behaviour CODE-4, MFA-9: a policy tightened since the sign-in counts here too.
  await requireSecondFactorIfAsked(found, user, deps);
  const scopes = stillGranted(found.scopes, client);

  const familyId = newId('fam_', deps.random);
  // The family ends a fixed time after sign-in, however often it rotates (lifetimes.refreshFamily).
  const familyExpiresAtEpoch = found.authTime + lifetimes.refreshFamily;
  // Behaviour MFA-11: the sign-in's methods travel in the access token, for this server's admin API.
  const access = await mintAccessToken(
    { clientId: client.clientId, sub: user.id, scopes, resource, amr: found.amr, jkt: proven?.jkt },
    deps,
  );
  const idToken = scopes.includes('openid')
    ? await mintIdToken(
        {
          clientId: client.clientId,
          sub: user.id,
          authTime: found.authTime,
          amr: found.amr,
          nonce: found.nonce,
          claims: userClaims(user, scopes),
        },
        deps,
      )
    : undefined;
  const refresh = client.grantTypes.includes('refresh_token')
    ? newRefreshToken(
        {
          clientId: client.clientId,
          userId: user.id,
          scopes,
          ...(resource !== undefined ? { resource } : {}),
          authTime: found.authTime,
          // How and under which password the user signed in: held against every rotation (RESET-12, REFRESH-6).
          ...(found.amr ? { amr: found.amr } : {}),
          credentialVersion: user.credentialVersion ?? 0,
          familyId,
          expiresAtEpoch: familyExpiresAtEpoch,
          // RFC 9449 5, behaviour REFRESH-8: a public client has no secret, so its key is what a stolen token lacks.
          ...(proven && client.type === 'public' ? { dpopJkt: proven.jkt } : {}),
        },
        deps.random,
      )
    : undefined;

  // The family keeps the sign-in's password version: this server's bearer endpoints compare it with the user's (BEARER-1, RESET-12).
  const family = { familyId, expiresAtEpoch: familyExpiresAtEpoch, credentialVersion: user.credentialVersion ?? 0 };
  const outcome = await deps.store.redeemCode(request.code, family, {
    token: { jti: access.jti, clientId: client.clientId, sub: user.id, familyId, expiresAtEpoch: access.expiresAtEpoch },
    activity: activity.row(true),
    ...(refresh ? { refresh } : {}),
  });
  if (outcome.kind === 'reused') {
    // Lost the race to a concurrent redemption: that one is a reuse too, so its family goes.
    const winner = await familyOfRedeemedCode(request.code, outcome.familyId, deps, nowEpoch);
    if (winner) await deps.store.revokeFamily(winner, nowEpoch);
    throw invalidCode(`authorization code redeemed concurrently; family ${winner ?? 'unknown'} revoked`);
  }
  return tokenResponse(access, { refreshToken: refresh?.token, idToken });
}

/** RFC 6749 4.1.3, OAuth 2.1 4.1.3 (redirect_uri: see checkBinding), RFC 7636 4.5, RFC 8707 2. */
const parameters = z.object({
  code: formField.required(512),
  redirect_uri: formField.optional(2048),
  code_verifier: formField.required(256),
  resource: formField.optional(2048),
});

export const authorizationCode: GrantImplementation<typeof parameters> = {
  parameters,
  async issue(client, p, activity, deps, proven) {
    const response = await authorizationCodeGrant(
      client,
      { code: p.code, redirectUri: p.redirect_uri, codeVerifier: p.code_verifier, resource: p.resource },
      activity,
      deps,
      proven,
    );
    // A dynamic client's first tokens: it is in use, so it no longer expires (DCR_CLIENT_EXPIRY_DAYS).
    if (client.expiresUnused) await deps.keepClient(client.clientId);
    return response;
  },
};
