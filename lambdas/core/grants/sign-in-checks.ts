/**
 * What a user's token request holds the sign-in behind its code or refresh token to, on every
 * use: the password it was made with is still the user's (behaviour RESET-12), it meets the MFA
 * policy in force now (behaviour MFA-9), and it is not older than SIGN_INS_NOT_BEFORE (behaviour
 * OPS-7). Both grants call these.
 */
import { lacksRequiredFactor } from '../account/second-factor';
import { InvalidGrantError } from '../errors';
import type { Grant, User } from '../model';
import type { GrantDependencies } from './grant';

/** The password changed since the sign-in (credentialVersion moved): a fact, not a failed read. */
export const passwordChangedSince = (grant: Pick<Grant, 'credentialVersion'>, user: Pick<User, 'credentialVersion'>): boolean =>
  (grant.credentialVersion ?? 0) !== (user.credentialVersion ?? 0);

/**
 * Behaviour OPS-7: the sign-in happened before SIGN_INS_NOT_BEFORE, which an operator sets after
 * restoring a table: a session, code or refresh token of that time may be one revoked since, and
 * the restored data cannot tell which, so none of them counts.
 */
export const signedInBeforeCutoff = (grant: Pick<Grant, 'authTime'>, notBefore: number | undefined): boolean =>
  notBefore !== undefined && grant.authTime < notBefore;

/**
 * Behaviour MFA-9, REFRESH-6, CODE-4: the policy now asks this user for a second factor the
 * sign-in did not include. The answer is invalid_grant (RFC 6749 5.2: the grant "does not match"
 * what is required now); the client sends the user through the authorization endpoint, which asks
 * for the code (behaviour AUTHZ-12). Nothing is revoked here: see REFRESH-6 for why.
 */
export async function requireSecondFactorIfAsked(grant: Pick<Grant, 'amr'>, user: User, deps: GrantDependencies): Promise<void> {
  if (await lacksRequiredFactor(user, grant.amr, deps.mfaPolicy)) {
    throw new InvalidGrantError(
      'The sign-in behind this grant did not use a second factor, which is now required. The user must sign in again.',
      `mfa policy now requires a second factor; sign-in amr ${(grant.amr ?? ['none']).join(' ')}`,
    );
  }
}
