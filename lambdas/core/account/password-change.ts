/**
 * What follows every password change, whatever the path (admin API, reset link, a future
 * account page; behaviour RESET-7): the user's sign-in sessions are deleted, their refresh token families
 * revoked, and the user is told by mail (ASVS 6.3.7, 7.4.3). Outstanding reset links and
 * pending sign-in challenges die by themselves: they remember the credentialVersion they
 * were issued under, and the change incremented it.
 */
import type { User } from '../model';
import type { Clock, Logger, Mailer } from '../ports';

export interface PasswordChangeDependencies {
  readonly sessions: { deleteSessionsOf(userId: string): Promise<void> };
  readonly tokens: { revokeFamiliesOf(userId: string, nowEpoch: number): Promise<void> };
  readonly mailer: Mailer;
  readonly clock: Clock;
  readonly log: Logger;
}

export const nextCredentialVersion = (user: Pick<User, 'credentialVersion'>): number => (user.credentialVersion ?? 0) + 1;

export const passwordChangedMail = {
  subject: 'Your password was changed',
  text: 'The password of your account was just changed, and every device signed in with the old one was signed out.\n\nIf you did not do this, reset your password at once and tell your administrator.\n',
};

/**
 * Runs after the new password is stored. Each step is idempotent, so a caller that fails
 * here can be retried. The mail is the last step and best effort: the change has happened,
 * and a mail outage must not report it as failed; it is logged instead.
 */
export async function afterPasswordChange(deps: PasswordChangeDependencies, user: User, notify: readonly string[]): Promise<void> {
  await endSignIns(deps, user.id);
  await notifyPasswordChanged(deps, user, notify);
}

/**
 * Revokes the user's refresh token families and deletes their sessions; idempotent. The one
 * place for it: password changes, the admin's "sign out everywhere" and user deletion call it.
 */
export async function endSignIns(deps: Pick<PasswordChangeDependencies, 'sessions' | 'tokens' | 'clock'>, userId: string): Promise<void> {
  await deps.tokens.revokeFamiliesOf(userId, Math.floor(deps.clock.now() / 1000));
  await deps.sessions.deleteSessionsOf(userId);
}

export async function notifyPasswordChanged(
  deps: Pick<PasswordChangeDependencies, 'mailer' | 'log'>,
  user: User,
  notify: readonly string[],
): Promise<void> {
  for (const to of new Set(notify)) {
    try {
      await deps.mailer.send({ to, ...passwordChangedMail });
    } catch (error) {
      deps.log.warn('password-change mail not sent', { userId: user.id, error: (error as Error).name });
    }
  }
}
