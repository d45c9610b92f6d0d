/**
 * Who may call /api/admin/* (behaviour ADMIN-1, ADMIN-2): an admin API client's token (client_credentials,
 * no `sub`), or an admin user's token; both must carry the `admin` scope, so an admin
 * user who signs in to an ordinary client does not hand it admin powers. Every other
 * valid token gets one and the same refusal, so admin configuration cannot be probed.
 * Self-service callers (API keys, behaviour KEYM-2's conditions, among them a client an administrator
 * created) are decided by the caller of `requireAdmin` through `selfServiceClientId`.
 * A user's token (admin or self-service) is also held to the MFA policy in force now (behaviour
 * MFA-11): a sign-in without the second factor the policy asks for gets RFC 9470's
 * `insufficient_user_authentication`, so a tightened policy reaches what its access tokens can do.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { MfaPolicy } from '../config/settings';
import { lacksRequiredFactor } from '../core/account/second-factor';
import { AccessDeniedError, InsufficientUserAuthenticationError } from '../core/errors';
import { adminScope, parseScope } from '../core/scope';
import type { User } from '../core/model';
import { invalidToken, verifyPresented, type AccessTokenClaims, type BearerDependencies } from './bearer';

export type AdminCaller =
  | { readonly kind: 'admin-client'; readonly clientId: string; readonly claims: AccessTokenClaims }
  | UserCaller<'admin-user'>
  | UserCaller<'self-service'>;

/** A user's caller, with the key generation of its user as the bearer check read it (behaviour KEY-17). */
interface UserCaller<K extends 'admin-user' | 'self-service'> {
  readonly kind: K;
  readonly userId: string;
  readonly clientId: string;
  readonly claims: AccessTokenClaims;
  /**
   * The user's `apiKeyGeneration` in the same read that held the token to the password
   * (BEARER-1): a key this caller creates belongs to it, so a reset's "Remove all" landing
   * between that read and the create's own read still ends the key (RESET-13).
   */
  readonly keyGeneration: number;
}

export const adminRefusal = () => new AccessDeniedError('This token may not use the admin API.');

export interface AdminAuthOptions {
  /** Accept a self-service caller for this client (the `{client_id}` of the path). */
  readonly selfServiceClientId?: string;
}

/** What deciding an admin caller reads: the bearer check (which reads the token's client and user too). */
export interface AdminAuthDependencies {
  readonly bearer: BearerDependencies;
  /** The MFA policy in force (the site setting, else MFA_POLICY): behaviour MFA-11. */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
}

const secondFactorRequired = (reason: string) => {
  const description =
    'This access token comes from a sign-in without the second factor the MFA policy now requires. Sign in again with the emailed code (or a passkey) and use the new token.';
  // RFC 9470 3: no acr_values (this server has no ACR levels) and no max_age (the sign-in's age is not what is missing).
  return new InsufficientUserAuthenticationError(description, reason, {
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_user_authentication", error_description="${description}"` },
  });
};

/**
 * Behaviour MFA-11: a user's token whose sign-in (`amr`) lacks a second factor the policy in force
 * asks of that user is refused. Key-minted tokens carry no sign-in: their exchange held the key to
 * the policy (behaviour MFA-12).
 */
async function requireFactorOfPolicy(claims: AccessTokenClaims, user: Pick<User, 'admin'>, deps: AdminAuthDependencies): Promise<void> {
  if (claims.api_key_id) return;
  if (await lacksRequiredFactor(user, claims.amr, deps.mfaPolicy)) {
    throw secondFactorRequired(
      `token ${claims.jti} amr ${(claims.amr ?? ['none']).join(' ')}; the mfa policy now requires a second factor`,
    );
  }
}

export async function requireAdmin(
  event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders' | 'httpMethod' | 'path'>,
  deps: AdminAuthDependencies,
  options: AdminAuthOptions = {},
): Promise<AdminCaller> {
  // The bearer check reads the token's client and, for a token of a sign-in, its user (both strongly
  // consistent), and refuses a token whose family's password version is not the user's (behaviour
  // BEARER-1, RESET-12): their records decide below.
  const { claims, client, user: userOf } = await verifyPresented(event, deps.bearer);
  const hasAdminScope = parseScope(claims.scope).includes(adminScope);
  if (!claims.sub) {
    if (hasAdminScope && client.admin) return { kind: 'admin-client', clientId: client.clientId, claims };
    throw adminRefusal();
  }
  const selfService = options.selfServiceClientId !== undefined && claims.client_id === options.selfServiceClientId && !claims.api_key_id;
  // Read when the answer may depend on it; for a token of a sign-in it is the bearer check's read.
  const user = hasAdminScope || selfService ? await userOf() : undefined;
  if (user?.admin && hasAdminScope) {
    await requireFactorOfPolicy(claims, user, deps);
    return { kind: 'admin-user', userId: user.id, clientId: claims.client_id, claims, keyGeneration: user.apiKeyGeneration ?? 0 };
  }
  // Behaviour KEYM-2: issued by the client in the path, carries a sub, not minted by an API key.
  if (selfService) {
    // Self-service is for clients an administrator created. Anyone can register a dynamic
    // client (or publish a metadata document): one consent to such a client must not become
    // a key that outlives it, so its tokens get the plain refusal, probing nothing.
    if (client.registrationType === 'static') {
      // A user who no longer exists creates and lists nothing: the answer userinfo gives (BEARER-2).
      if (!user) throw invalidToken(`user ${claims.sub} of token ${claims.jti} no longer exists`);
      await requireFactorOfPolicy(claims, user, deps);
      return { kind: 'self-service', userId: claims.sub, clientId: claims.client_id, claims, keyGeneration: user.apiKeyGeneration ?? 0 };
    }
  }
  throw adminRefusal();
}
