/**
 * An admin's changes to how a user signs in, each with its audit entry (behaviour LOG-9): the
 * admin API and the dashboard call these and record nothing themselves.
 */
import { endSignIns } from '../account/password-change';
import { type PasskeyDependencies, removePasskey } from '../account/passkeys';
import type { Passkey } from '../account/ports';
import { type PasswordResetDependencies, sendResetLink } from '../account/password-reset';
import { NotFoundError } from '../errors';
import type { User } from '../model';
import { type AdminActor, auditEntryOf, recordChange } from './audit';
import type { AdminDependencies } from './ports';
import { getUser } from './users';

/**
 * "Sign out everywhere" (ASVS 7.4.5): ends every session of the user and revokes their refresh
 * token families, so every client must send them through sign-in again. Its entry is written
 * after (docs/storage-schema.md: a user's sessions are unbounded, a transaction is not).
 */
export async function signOutEverywhere(
  deps: Pick<AdminDependencies, 'users' | 'sessions' | 'tokens' | 'auditLog' | 'clock'>,
  actor: AdminActor,
  userId: string,
): Promise<User> {
  const user = await getUser(deps, userId);
  await endSignIns(deps, user.id);
  await recordChange(deps, actor, { type: 'user.sessions_revoke', userId: user.id });
  return user;
}

/** An admin's reset link: the mail it sends is beyond any transaction, so its entry is written after (docs/storage-schema.md). */
export interface AdminResetLinkDependencies extends Pick<AdminDependencies, 'users' | 'auditLog' | 'clock'> {
  readonly passwordReset: PasswordResetDependencies;
}

/**
 * Behaviour ADMIN-17 (ASVS 6.4.6): mails the user a reset link; the admin never sets or sees
 * the password this way. InvalidRequestError for a user without an address.
 */
export async function sendPasswordResetLink(
  deps: AdminResetLinkDependencies,
  actor: AdminActor,
  userId: string,
): Promise<{ readonly user: User; readonly expiresIn: number }> {
  const user = await getUser(deps, userId);
  const { expiresIn } = await sendResetLink(deps.passwordReset, user);
  await recordChange(deps, actor, { type: 'user.password_reset_send', userId: user.id });
  return { user, expiresIn };
}

/** The user's passkeys that still sign in, for the admin (behaviour PASSKEY-8); 404 for no such user. */
export async function listUserPasskeys(deps: Pick<AdminDependencies, 'users' | 'passkeys'>, userId: string): Promise<Passkey[]> {
  const user = await getUser(deps, userId);
  return deps.passkeys.listOf(user.id);
}

export interface AdminPasskeyRemovalDependencies extends Pick<AdminDependencies, 'users' | 'clock'> {
  /** The passkey flow that removes it and mails the user, as their own removal does (behaviour PASSKEY-8). */
  readonly passkeyRemoval: PasskeyDependencies;
}

/** Removes one passkey of the user, its `user.passkey_remove` entry in the removal's transaction (behaviour LOG-9); 404 when the user has none such. */
export async function removeUserPasskey(
  deps: AdminPasskeyRemovalDependencies,
  actor: AdminActor,
  input: { readonly userId: string; readonly credentialId: string },
): Promise<void> {
  const user = await getUser(deps, input.userId);
  const audit = auditEntryOf(deps, actor, { type: 'user.passkey_remove', userId: user.id });
  if (!(await removePasskey(deps.passkeyRemoval, user, input.credentialId, audit)))
    throw new NotFoundError('The user has no such passkey.');
}
