/**
 * Email verification (behaviour VERIFY-2..VERIFY-6): a code mailed to the user's current
 * address, with the one-time code rules of behaviour MFA-3, MFA-4 (ten minutes, attempts capped and
 * counted atomically, single use). The code is bound to the user (one item per user; a new request
 * replaces it) and to the address it went to: confirming it sets `emailVerifiedAt` only while the
 * user's address is still that one.
 */
import { InvalidGrantError, InvalidRequestError, TooManyRequestsError } from '../errors';
import type { User } from '../model';
import { newOneTimeCode, oneTimeCodeLifetimeSeconds } from './one-time-code';
import { verificationCodeRate } from './send-rate';
import { checkStoredCode, type MailedCodeDependencies } from './stored-code';
import type { VerificationStore } from './ports';

export interface EmailVerificationDependencies extends MailedCodeDependencies<'email-confirmation-code'> {
  readonly codes: VerificationStore;
}

/** Confirming sends nothing: its function is wired without the mailer. */
export type EmailConfirmationDependencies = Omit<EmailVerificationDependencies, 'notifier' | 'sendRate'>;

export type VerificationRequestResult = { readonly kind: 'already-verified' } | { readonly kind: 'sent'; readonly expiresIn: number };

export async function requestVerification(deps: EmailVerificationDependencies, user: User): Promise<VerificationRequestResult> {
  // Checked before anything is written: no address, nothing stored and no mail.
  if (!user.email) throw new InvalidRequestError('This account has no email address to verify.', `user ${user.id} has no email`);
  if (user.emailVerifiedAt !== undefined) return { kind: 'already-verified' };
  const nowEpoch = Math.floor(deps.clock.now() / 1000);
  const rate = await deps.sendRate.take(`EMAILVERIFY#${user.id}`, verificationCodeRate, nowEpoch);
  if (!rate.allowed) {
    throw new TooManyRequestsError(
      'A code was sent recently; wait before asking for another.',
      rate.retryAfterSeconds,
      `verification rate for ${user.id}`,
    );
  }
  const code = newOneTimeCode(deps.random);
  await deps.codes.save(user.id, {
    userId: user.id,
    email: user.email,
    codeHash: await deps.hasher.hash(code),
    maxAttempts: deps.maxAttempts,
    expiresAtEpoch: nowEpoch + oneTimeCodeLifetimeSeconds,
  });
  try {
    await deps.notifier.notify(user.email, { kind: 'email-confirmation-code', code, expiresInMinutes: oneTimeCodeLifetimeSeconds / 60 });
  } catch (error) {
    // A code nobody received must not linger as a target for guesses.
    await deps.codes.delete(user.id);
    throw error;
  }
  return { kind: 'sent', expiresIn: oneTimeCodeLifetimeSeconds };
}

/** One answer for every failure: wrong, expired, used, out of attempts, or for another address. */
const refused = (reason: string) => new InvalidGrantError('The code is wrong, expired or already used. Request a new code.', reason);

export async function confirmVerification(deps: EmailConfirmationDependencies, user: User, code: string): Promise<void> {
  const check = await checkStoredCode(deps, deps.codes, user.id, code);
  if (check.kind === 'expired') throw refused(check.reason);
  if (check.kind === 'wrong') throw refused(`wrong code, ${check.triesLeft} attempts left`);
  if (check.item.email !== user.email) {
    await deps.codes.delete(user.id);
    throw refused('the address changed since the code was sent');
  }
  if (!(await deps.codes.confirm(check.item, new Date(deps.clock.now()).toISOString()))) {
    throw refused('code used concurrently, or the address changed while confirming');
  }
}
