/**
 * What follows every password change, whatever the path (admin API, reset link, a future
 * account page; behaviour RESET-7): the user's sign-in sessions are deleted, their refresh token families
 * revoked, and the user is told by mail (ASVS 6.3.7, 7.4.3). Outstanding reset links and
 * pending sign-in challenges die by themselves: they remember the credentialVersion they
 * were issued under, and the change incremented it.
 */
import { keyStatus } from '../api-keys/status';
import type { User } from '../model';
import type { Clock, Logger, Mailer } from '../ports';
import { passkeyLine, utcMinute } from './passkeys';
import { accountPaths } from './paths';
import type { Passkey, SelfServiceKey, SelfServiceKeyReader } from './ports';

export interface PasswordChangeDependencies {
  readonly sessions: { deleteSessionsOf(userId: string): Promise<void> };
  readonly tokens: { revokeFamiliesOf(userId: string, nowEpoch: number): Promise<void> };
  readonly mailer: Mailer;
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

/** One line of a mail's or page's list: never the secret, which is not stored anyway (behaviour KEY-2). */
export const apiKeyLine = (key: SelfServiceKey) =>
  `- ${key.name ? `"${key.name}"` : 'unnamed key'} (key id ${key.keyId}, client ${key.clientId}), created ${utcMinute(key.createdAt)}, last used ${key.lastUsedAt ? utcMinute(key.lastUsedAt) : 'never'}${key.pending ? ', still being created' : ''}`;

/** How the password changed, as the mail tells it (behaviour RESET-10). */
export type PasswordChangeWay = 'reset-link' | 'admin';

export const nextCredentialVersion = (user: Pick<User, 'credentialVersion'>): number => (user.credentialVersion ?? 0) + 1;

/**
 * Behaviour RESET-10: the mail says exactly what happened: how the password changed, that every
 * session and refresh token ended, and which passkeys still sign in (named, with how to remove
 * them), since a passkey an intruder added survives a password change.
 */
export function passwordChangedMail(
  deps: Pick<PasswordChangeDependencies, 'baseUrl'>,
  way: PasswordChangeWay,
  at: string,
  passkeys: readonly Passkey[] | undefined,
  apiKeys: readonly SelfServiceKey[] | undefined = [],
): { subject: string; text: string } {
  const how = way === 'reset-link' ? 'with a reset link mailed to this address' : 'by an administrator';
  const passkeysPage = `${deps.baseUrl}${accountPaths.passkeys}`;
  const passkeyPart =
    passkeys === undefined
      ? `Passkeys are not ended by a password change: any passkey on your account still signs in without the password. Check them at ${passkeysPage} (after signing in) and remove any you do not recognise.`
      : passkeys.length === 0
        ? 'No passkey can sign in to your account.'
        : `These passkeys can still sign in to your account without the password, as a password change does not end them:\n${passkeys.map(passkeyLine).join('\n')}\n\nTo remove one, sign in, open ${passkeysPage} and press Remove next to it, or ask your administrator to remove it.${
            way === 'reset-link' ? ' The page shown after the reset offers removing them all at once, for 10 minutes.' : ''
          }`;
  const keysPart =
    apiKeys === undefined
      ? 'API keys you created in an application are not ended by a password change either: any such key still gets access tokens that act as you. Check them in the applications you use, and revoke any you do not recognise.'
      : apiKeys.length === 0
        ? 'No API key you created in an application can get tokens for your account.'
        : `These API keys, created in an application with your account, still get access tokens that act as you, as a password change does not end them:\n${apiKeys.map(apiKeyLine).join('\n')}\n\nTo revoke one, sign in to the application named and revoke the key there, or ask your administrator to revoke it by its key id.${
            way === 'reset-link'
              ? ' The page shown after the reset offers revoking them all at once, with the passkeys, for 10 minutes.'
              : ''
          }`;
  return {
    subject: 'Your password was changed',
    text: `The password of your account was just changed ${how}, on ${utcMinute(at)}.

Every session signed in to your account was ended, on every device, and the refresh tokens of every application were revoked: they must sign in again, with the new password. Reset links sent before the change no longer work.

${passkeyPart}

${keysPart}

If you did not change your password, reset it at once at ${deps.baseUrl}${accountPaths.forgotPassword}, remove any passkey and revoke any API key you do not recognise, and tell your administrator.
`,
  };
}

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
  deps: Pick<PasswordChangeDependencies, 'mailer' | 'log' | 'passkeys' | 'apiKeys' | 'baseUrl' | 'clock'>,
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
  const mail = passwordChangedMail(deps, way, new Date(deps.clock.now()).toISOString(), passkeys, apiKeys);
  for (const to of new Set(notify)) {
    try {
      await deps.mailer.send({ to, ...mail });
    } catch (error) {
      deps.log.warn('password-change mail not sent', { userId: user.id, error: (error as Error).name });
    }
  }
}
