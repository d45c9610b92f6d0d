/**
 * Password reset by mailed link (/forgot-password, /reset-password; behaviour RESET-1..RESET-7).
 *
 * - The token is 256 random bits; the store keys it by its SHA-256 digest, so a table dump
 *   holds no usable link. It lives `resetLinkLifetimeSeconds`.
 * - Looking a link up (the GET a mail scanner may prefetch) consumes nothing.
 * - Redeeming is one transaction: the token item deleted (single use), the user's pointer
 *   must still name this digest (a newer request replaced it: older links are dead), and the
 *   user updated only if their credentialVersion and address are still those the link was
 *   issued for (any password change since, by any path, kills the link).
 * - No session is started afterwards: the user signs in, and the second factor applies.
 */
import { createHash } from 'node:crypto';
import { InvalidRequestError } from '../errors';
import { newSecret } from '../ids';
import type { User } from '../model';
import type { Clock, Hasher, RandomSource } from '../ports';
import type { AuditEntry } from '../model';
import {
  accountLinks,
  afterPasswordChange,
  endSignIns,
  liveSelfServiceKeys,
  nextCredentialVersion,
  type PasswordChangeDependencies,
} from './password-change';
import type { Passkey, ResetLink, ResetLinkStore, SelfServiceKey } from './ports';

/**
 * Behaviour RESET-3: OWASP ASVS allows at most an hour; half of that is plenty for
 * a mail round trip.
 */
export const resetLinkLifetimeSeconds = 1800;

/**
 * Behaviour RESET-9: the reset completion may remove every passkey within this long, the window
 * in which a sign-in counts as recent enough to manage passkeys (PASSKEY-1).
 */
export const recoveryLifetimeSeconds = 600;

export interface PasswordResetDependencies extends PasswordChangeDependencies {
  readonly links: ResetLinkStore;
  /** Behaviour RESET-9: the completion's "remove every passkey". */
  readonly passkeys: PasswordChangeDependencies['passkeys'] & { removeAllOf(userId: string): Promise<Passkey[]> };
  /**
   * Behaviour RESET-13: the completion's "Remove all" revokes every self-service key too, each as
   * the key routes revoke one (one transaction with its `api_key.revoke` entry; false when already
   * revoked or gone).
   */
  readonly apiKeys: PasswordChangeDependencies['apiKeys'] & {
    revoke(key: SelfServiceKey, revokedAt: string, audit: AuditEntry): Promise<boolean>;
  };
  readonly hasher: Hasher;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** The issuer: links are built from configuration, never from a request's Host header. */
  readonly baseUrl: string;
  readonly resetPagePath: string;
}

export const resetTokenDigest = (token: string): string => createHash('sha256').update(token).digest('base64url');

const epoch = (clock: Clock) => Math.floor(clock.now() / 1000);

/** Issues a link for the user and mails it to their address. */
export async function sendResetLink(deps: PasswordResetDependencies, user: User): Promise<{ readonly expiresIn: number }> {
  if (!user.email) throw new InvalidRequestError('This user has no email address to send a link to.', `user ${user.id} has no email`);
  const token = newSecret(deps.random);
  await deps.links.issue(resetTokenDigest(token), {
    userId: user.id,
    email: user.email,
    credentialVersion: user.credentialVersion ?? 0,
    expiresAtEpoch: epoch(deps.clock) + resetLinkLifetimeSeconds,
  });
  // base64url needs no escaping in a query.
  const url = `${deps.baseUrl}${deps.resetPagePath}?token=${token}`;
  await deps.notifier.notify(user.email, { kind: 'password-reset-link', url, expiresInMinutes: resetLinkLifetimeSeconds / 60 });
  return { expiresIn: resetLinkLifetimeSeconds };
}

/**
 * The work behind POST /forgot-password, run off the request path (the answer is sent
 * before it starts, so its time tells nothing): an unknown address, or a user without a
 * password-capable account, gets nothing, and nobody learns which.
 */
export async function sendResetLinkTo(
  deps: PasswordResetDependencies & { readonly findUserByEmail: (email: string) => Promise<User | undefined> },
  email: string,
): Promise<'sent' | 'no such account'> {
  const user = await deps.findUserByEmail(email);
  if (!user?.email || !user.passwordHash) return 'no such account';
  await sendResetLink(deps, user);
  return 'sent';
}

/** The link, when it is live, the user's newest, and the user's address and password are unchanged since. */
export async function findResetLink(
  deps: Pick<PasswordResetDependencies, 'links' | 'clock'>,
  token: string,
): Promise<{ link: ResetLink; user: User } | undefined> {
  const link = await deps.links.find(resetTokenDigest(token), epoch(deps.clock));
  if (!link) return undefined;
  const user = await deps.links.currentUser(link.userId);
  if (!user || user.email !== link.email || (user.credentialVersion ?? 0) !== link.credentialVersion) return undefined;
  return { link, user };
}

export interface CompletedReset {
  readonly user: User;
  /** The secret of the recovery proof (behaviour RESET-9), for the browser's cookie only. */
  readonly recovery: string;
  /** The passkeys that still sign in, as the completion page lists them; undefined when they could not be read. */
  readonly passkeys: readonly Passkey[] | undefined;
  /** The self-service API keys that still exchange (behaviour RESET-13), as the page lists them; undefined when unread. */
  readonly apiKeys: readonly SelfServiceKey[] | undefined;
}

/** Sets the new password once; undefined when the link is not (or no longer) good. */
export async function resetPassword(deps: PasswordResetDependencies, token: string, password: string): Promise<CompletedReset | undefined> {
  const found = await findResetLink(deps, token);
  if (!found) return undefined;
  const passwordHash = await deps.hasher.hash(password);
  // Signed out before the link is used, and again after (behaviour RESET-7): when this first step
  // fails the request fails with the link still unused, so the user can submit it again. Done
  // only after the change, a failure left the link used and the old sessions alive.
  await endSignIns(deps, found.user.id);
  const at = new Date(deps.clock.now()).toISOString();
  const credentialVersion = nextCredentialVersion(found.user);
  const recovery = newSecret(deps.random);
  const redeemed = await deps.links.redeem(
    resetTokenDigest(token),
    found.link,
    { passwordHash, credentialVersion, at },
    epoch(deps.clock),
    {
      digest: resetTokenDigest(recovery),
      proof: { userId: found.user.id, credentialVersion, expiresAtEpoch: epoch(deps.clock) + recoveryLifetimeSeconds },
    },
  );
  if (!redeemed) return undefined;
  await afterPasswordChange(deps, found.user, [found.link.email], 'reset-link');
  // The mail above already listed them (behaviour RESET-10); a failed read here must not turn a
  // completed reset into an error page, and must not show as none: the page then says any of them
  // still works and where to check them (behaviour RESET-9, RESET-13).
  const passkeys = await deps.passkeys.listOf(found.user.id).catch(() => undefined);
  const apiKeys = await liveSelfServiceKeys(deps, found.user).catch(() => undefined);
  return { user: found.user, recovery, passkeys, apiKeys };
}

/**
 * Behaviour RESET-9: the completion's "remove every passkey", against an intruder whose passkey
 * still signs in and who acts while it runs. The first write, one transaction, uses the proof up
 * (on the password the reset set: any later change has outlived it) and moves the user's
 * credentialVersion and passkeyGeneration. From that write on:
 * - every session, code and refresh token of every factor started before it is dead at its next
 *   use (RESET-12), one a passkey sign-in in flight is starting included (PASSKEY-3);
 * - every passkey added before it signs no one in (PASSKEY-13), whether or not its record is
 *   deleted yet;
 * - a registration from any session started before it stores nothing (PASSKEY-14).
 * Then every passkey record is deleted, found in the user's own partition strongly consistently
 * (one a registration wrote just before the first write too), the sessions and refresh families
 * the index shows are ended, and one mail names what was removed. Listing and deleting one by
 * one with nothing moved first, as before, let a registration or a sign-in landing in between
 * survive. The proof's own check comes before the write, so the version the write moves cannot end
 * the step it belongs to. Undefined when the proof is absent, expired, used or outlived.
 */
export async function removeAllAfterReset(
  deps: PasswordResetDependencies,
  recovery: string,
): Promise<{ readonly user: User; readonly removed: readonly Passkey[]; readonly revokedKeys: readonly SelfServiceKey[] } | undefined> {
  const digest = resetTokenDigest(recovery);
  const proof = await deps.links.findRecovery(digest, epoch(deps.clock));
  if (!proof) return undefined;
  const user = await deps.links.currentUser(proof.userId);
  if (!user || (user.credentialVersion ?? 0) !== proof.credentialVersion) return undefined;
  const seen = { credentialVersion: user.credentialVersion ?? 0, passkeyGeneration: user.passkeyGeneration ?? 0 };
  const used = await deps.links.useRecovery(
    digest,
    {
      userId: user.id,
      seen,
      next: { credentialVersion: seen.credentialVersion + 1, passkeyGeneration: seen.passkeyGeneration + 1 },
      at: new Date(deps.clock.now()).toISOString(),
    },
    epoch(deps.clock),
  );
  if (!used) return undefined;
  const removed = await deps.passkeys.removeAllOf(user.id);
  const revokedKeys = await revokeSelfServiceKeys(deps, user.id);
  await endSignIns(deps, user.id);
  if (user.email) {
    try {
      await deps.notifier.notify(user.email, {
        kind: 'removed-after-reset',
        at: new Date(deps.clock.now()).toISOString(),
        removedPasskeys: removed,
        revokedKeys,
        links: accountLinks(deps.baseUrl),
      });
    } catch (error) {
      deps.log.warn('passkeys-removed mail not sent', { userId: user.id, error: (error as Error).name });
    }
  }
  return { user, removed, revokedKeys };
}

/** Why the audit log says these keys were revoked (behaviour RESET-13, LOG-4). */
export const recoveryRevocationReason = 'revoked by the owner with every self-service key after a password reset';

/**
 * Behaviour RESET-13: after the first write (the keys' generation moved, so none of them exchanges
 * any more, KEY-17), every self-service key not yet revoked, pending ones included, is revoked as
 * a DELETE of the key routes would: one transaction each with its `api_key.revoke` entry, the
 * owner as actor. Already revoked (a concurrent DELETE): left as it is, no second entry. Found in
 * the user's own partition strongly consistently, so a create whose pending write landed before
 * this read is revoked too and its activation fails; one landing after it stays of the old
 * generation and never exchanges.
 */
async function revokeSelfServiceKeys(deps: PasswordResetDependencies, userId: string): Promise<SelfServiceKey[]> {
  const keys = await deps.apiKeys.selfServiceKeysOf(userId);
  const revokedAt = new Date(deps.clock.now()).toISOString();
  const revoked = await Promise.all(
    keys.map(async (key) => {
      const audit: AuditEntry = {
        type: 'api_key.revoke',
        clientId: key.clientId,
        keyId: key.keyId,
        userId,
        actor: { kind: 'user', userId },
        reason: recoveryRevocationReason,
        at: revokedAt,
      };
      return (await deps.apiKeys.revoke(key, revokedAt, audit)) ? key : undefined;
    }),
  );
  return revoked.filter((key): key is SelfServiceKey => key !== undefined);
}
