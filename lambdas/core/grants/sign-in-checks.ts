/**
 * What a user's token request holds the sign-in behind its code or refresh token to, on every use
 * (issue 26): the password it was made with is still the user's (behaviour RESET-8). Both grants
 * call this after the user was read.
 */
import type { Grant, User } from '../model';

/** The password changed since the sign-in (credentialVersion moved): a fact, not a failed read. */
export const passwordChangedSince = (grant: Pick<Grant, 'credentialVersion'>, user: Pick<User, 'credentialVersion'>): boolean =>
  (grant.credentialVersion ?? 0) !== (user.credentialVersion ?? 0);
