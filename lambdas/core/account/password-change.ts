/**
 * What follows every password change, whatever the path (admin API, reset link, a future
 * account page; behaviour RESET-7): the user's sign-in sessions are deleted, their refresh token families
 * revoked, and the user is told by mail (ASVS 6.3.7, 7.4.3). Outstanding reset links and
 * pending sign-in challenges die by themselves: they remember the credentialVersion they
 * were issued under, and the change incremented it.
 */
import { keyStatus } from '../api-keys/status';
import type { User } from '../model';
import type { AccountLinks, PasswordChangedNotice, PasswordChangeWay } from '../notices';

export type { PasswordChangeWay } from '../notices';
import type { Clock, Logger, Notifier } from '../ports';
import { accountPaths } from './paths';
import type { Passkey, SelfServiceKey, SelfServiceKeyReader } from './ports';

export interface PasswordChangeDependencies {
  readonly sessions: { deleteSessionsOf(userId: string): Promise<void> };
  readonly tokens: { revokeFamiliesOf(userId: string, nowEpoch: number): Promise<void> };
  /** Resetting a password also mails its link and, after "Remove all", what was removed (password-reset.ts). */
  readonly notifier: Notifier<'password-changed' | 'password-reset-link' | 'removed-after-reset'>;
  readonly clock: Clock;
  readonly log: Logger;
  /** Read for the mail: which passkeys still sign in (behaviour RESET-10). */
  readonly passkeys: { listOf(userId: string): Promise<Passkey[]> };
  /** Read for the mail: which self-service API keys still exchange (behaviour RESET-10, RESET-13). */
  readonly apiKeys: SelfServiceKeyReader;
  /** The issuer: the mail links to the passkeys page and the forgot-password page under it. */
  readonly baseUrl: string;
}

/**
 * Behaviour RESET-13: the self-service keys that can still exchange (or will, once their create
 * finishes): not expired, and of the user's current key generation (KEY-17).
 */
export async function liveSelfServiceKeys(
  deps: { readonly apiKeys: SelfServiceKeyReader; readonly clock: Clock },
  user: User,
): Promise<SelfServiceKey[]> {
  const keys = await deps.apiKeys.selfServiceKeysOf(user.id);
  return keys.filter((key) => keyStatus(key, deps.clock.now()) === 'active' && (key.generation ?? 0) === (user.apiKeyGeneration ?? 0));
}

export const nextCredentialVersion = (user: Pick<User, 'credentialVersion'>): number => (user.credentialVersion ?? 0) + 1;

/** The passkeys page and the forgot-password page under the issuer, as the account mails link them. */
export const accountLinks = (baseUrl: string): AccountLinks => ({
  passkeys: `${baseUrl}${accountPaths.passkeys}`,
  forgotPassword: `${baseUrl}${accountPaths.forgotPassword}`,
});

/**
 * Runs after the new password is stored. Each step is idempotent, so a caller that fails
 * here can be retried. The mail is the last step and best effort: the change has happened,
 * and a mail outage must not report it as failed; it is logged instead.
 */
export async function afterPasswordChange(
  deps: PasswordChangeDependencies,
  user: User,
  notify: readonly string[],
  way: PasswordChangeWay,
): Promise<void> {
  await endSignIns(deps, user.id);
  await notifyPasswordChanged(deps, user, notify, way);
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
  deps: Pick<PasswordChangeDependencies, 'notifier' | 'log' | 'passkeys' | 'apiKeys' | 'baseUrl' | 'clock'>,
  user: User,
  notify: readonly string[],
  way: PasswordChangeWay,
): Promise<void> {
  let passkeys: Passkey[] | undefined;
  try {
    passkeys = await deps.passkeys.listOf(user.id);
  } catch (error) {
    // The mail still goes, saying passkeys survive without naming them.
    deps.log.warn('passkeys not listed for the password-change mail', { userId: user.id, error: (error as Error).name });
  }
  let apiKeys: SelfServiceKey[] | undefined;
  try {
    apiKeys = await liveSelfServiceKeys(deps, user);
  } catch (error) {
    // The mail still goes, saying keys survive without naming them.
    deps.log.warn('API keys not listed for the password-change mail', { userId: user.id, error: (error as Error).name });
  }
  const notice: PasswordChangedNotice = {
    kind: 'password-changed',
    way,
    at: new Date(deps.clock.now()).toISOString(),
    passkeys,
    apiKeys,
    links: accountLinks(deps.baseUrl),
  };
  for (const to of new Set(notify)) {
    try {
      await deps.notifier.notify(to, notice);
    } catch (error) {
      deps.log.warn('password-change mail not sent', { userId: user.id, error: (error as Error).name });
    }
  }
}
