/**
 * The emailed second factor at sign-in (behaviour MFA-1..MFA-8). After a correct
 * password, when the policy applies to the user (MFA_POLICY) or their address still needs verifying
 * (REQUIRE_VERIFIED_EMAIL), no session starts: a challenge is stored and a code mailed. The
 * challenge id (256 bits) is the browser's handle; the store keeps only its digest. Only the right
 * code, within its attempts and ten minutes, for the same user, address and password
 * (credentialVersion), starts the session, with amr `pwd otp mfa` (RFC 8176).
 */
import { createHash } from 'node:crypto';
import type { MfaPolicy } from '../model';
import { AccessDeniedError, TooManyRequestsError } from '../errors';
import { newSecret } from '../ids';
import type { User } from '../model';
import type { Clock } from '../ports';
import { maskEmail, newOneTimeCode, oneTimeCodeLifetimeSeconds } from './one-time-code';
import { signInCodeRate, signInCodeResendRate } from './send-rate';
import { checkStoredCode, type CodeCheck, type MailedCodeDependencies } from './stored-code';
import type { ChallengeStore, SendRatePolicy, SignInChallenge } from './ports';

/** RFC 8176: a password and a one-time code, so multiple factors. */
export const passwordAndCodeAmr = ['pwd', 'otp', 'mfa'] as const;
export const passwordAmr = ['pwd'] as const;

export interface SecondFactorDependencies extends MailedCodeDependencies<'sign-in-code'> {
  readonly challenges: ChallengeStore;
  /**
   * The MFA policy in force: the stored site setting, else MFA_POLICY. Read at each sign-in, never
   * cached, so a changed policy applies to the next sign-in (behaviour SITE-2).
   */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
  /** Sets emailVerifiedAt while the user's address is still `email` (REQUIRE_VERIFIED_EMAIL challenges). */
  readonly markEmailVerified?: (userId: string, email: string, at: string) => Promise<boolean>;
}

/** Checking a code sends nothing: the code's door is wired without the mailer. */
export type ChallengeCheckDependencies = Omit<SecondFactorDependencies, 'notifier' | 'sendRate' | 'mfaPolicy'> & {
  readonly currentUser: (id: string) => Promise<User | undefined>;
};

export type SecondFactorNeed =
  | { readonly kind: 'none' }
  | { readonly kind: 'code'; readonly email: string; readonly verifiesEmail: boolean }
  /** A code is required but there is no address to send it to. */
  | { readonly kind: 'impossible' };

/** Whether the MFA policy asks this user for a second factor (behaviour MFA-1). */
export const policyCovers = (user: Pick<User, 'admin'>, policy: MfaPolicy): boolean =>
  policy === 'everyone' || (policy === 'admins' && user.admin);

/**
 * The RFC 8176 methods of a sign-in. A session or grant stored before they were recorded has
 * none; it counts as a password alone, never as more (behaviour MFA-9).
 */
export const methodsOf = (amr: readonly string[] | undefined): readonly string[] => (amr && amr.length > 0 ? amr : passwordAmr);

/** RFC 8176 `mfa`: the sign-in used more than one factor (a password and a mailed code, or a passkey with user verification). */
export const hasSecondFactor = (amr: readonly string[] | undefined): boolean => methodsOf(amr).includes('mfa');

/**
 * Behaviour MFA-9: whether the policy in force now asks this user for a second factor that the
 * sign-in behind a session, code or refresh token (`amr`) did not include. Checked on every use,
 * so a stricter policy reaches sign-ins made before it. The policy is read only when the answer
 * depends on it (a sign-in with a second factor satisfies every policy).
 */
export async function lacksRequiredFactor(
  user: Pick<User, 'admin'>,
  amr: readonly string[] | undefined,
  mfaPolicy: () => Promise<MfaPolicy>,
): Promise<boolean> {
  if (hasSecondFactor(amr)) return false;
  return policyCovers(user, await mfaPolicy());
}

export function secondFactorNeed(user: User, policy: MfaPolicy, requireVerifiedEmail: boolean): SecondFactorNeed {
  const mfa = policyCovers(user, policy);
  const verifiesEmail = requireVerifiedEmail && user.emailVerifiedAt === undefined;
  if (!mfa && !verifiesEmail) return { kind: 'none' };
  return user.email ? { kind: 'code', email: user.email, verifiesEmail } : { kind: 'impossible' };
}

/** A user who needs a code and has no address cannot sign in (behaviour MFA-1). */
export function noAddressForCode(user: Pick<User, 'id'>): AccessDeniedError {
  return new AccessDeniedError(
    'This account must confirm each sign-in with a code sent by email, but it has no email address. Ask an administrator.',
    `user ${user.id} needs a mailed code and has no email`,
  );
}

/** The masked address a step-up code would go to (behaviour MFA-10); throws for a user without one (MFA-1). */
export function stepUpAddress(user: User): string {
  if (!user.email) throw noAddressForCode(user);
  return maskEmail(user.email);
}

export const requestDigest = (requestId: string): string => createHash('sha256').update(requestId).digest('base64url');

const epoch = (clock: Clock) => Math.floor(clock.now() / 1000);

async function mailCode(deps: SecondFactorDependencies, userId: string, email: string, policy: SendRatePolicy, nowEpoch: number) {
  const rate = await deps.sendRate.take(`OTP#${userId}`, policy, nowEpoch);
  if (!rate.allowed) {
    throw new TooManyRequestsError(
      `Too many codes were sent to this account. Try again in ${Math.ceil(rate.retryAfterSeconds / 60)} minute(s).`,
      rate.retryAfterSeconds,
      `sign-in code rate for user ${userId}`,
    );
  }
  const code = newOneTimeCode(deps.random);
  return {
    code,
    codeHash: await deps.hasher.hash(code),
    send: () => deps.notifier.notify(email, { kind: 'sign-in-code', code, expiresInMinutes: oneTimeCodeLifetimeSeconds / 60 }),
  };
}

export interface StartedChallenge {
  readonly challengeId: string;
  readonly maskedEmail: string;
}

/** After a correct password: store a challenge and mail its code. Throws TooManyRequestsError when throttled. */
export async function startChallenge(
  deps: SecondFactorDependencies,
  user: User,
  need: Extract<SecondFactorNeed, { kind: 'code' }>,
  continuation: { readonly returnTo?: string; readonly requestId?: string },
): Promise<StartedChallenge> {
  const nowEpoch = epoch(deps.clock);
  const mail = await mailCode(deps, user.id, need.email, signInCodeRate, nowEpoch);
  const challengeId = newSecret(deps.random);
  await deps.challenges.save(challengeId, {
    userId: user.id,
    email: need.email,
    codeHash: mail.codeHash,
    maxAttempts: deps.maxAttempts,
    credentialVersion: user.credentialVersion ?? 0,
    verifiesEmail: need.verifiesEmail,
    ...(continuation.returnTo ? { returnTo: continuation.returnTo } : {}),
    ...(continuation.requestId ? { requestDigest: requestDigest(continuation.requestId) } : {}),
    expiresAtEpoch: nowEpoch + oneTimeCodeLifetimeSeconds,
  });
  await mail.send();
  return { challengeId, maskedEmail: maskEmail(need.email) };
}

/** A new code for the challenge (the old one stops working). Undefined when the challenge is gone. */
export async function resendCode(deps: SecondFactorDependencies, challengeId: string): Promise<SignInChallenge | undefined> {
  const nowEpoch = epoch(deps.clock);
  const challenge = await deps.challenges.get(challengeId, nowEpoch);
  if (!challenge) return undefined;
  const mail = await mailCode(deps, challenge.userId, challenge.email, signInCodeResendRate, nowEpoch);
  if (!(await deps.challenges.replaceCode(challengeId, mail.codeHash, nowEpoch + oneTimeCodeLifetimeSeconds, nowEpoch))) return undefined;
  await mail.send();
  return challenge;
}

/**
 * Checks the code; on a match the challenge is consumed (single use) and then held against
 * the user as stored now: same address, same password version. The caller starts the session.
 */
export async function completeChallenge(
  deps: ChallengeCheckDependencies,
  challengeId: string,
  code: string,
  requestId: string | undefined,
): Promise<CodeCheck<SignInChallenge> | { readonly kind: 'mismatch'; readonly reason: string }> {
  const nowEpoch = epoch(deps.clock);
  const found = await deps.challenges.get(challengeId, nowEpoch);
  if (!found) return { kind: 'expired', reason: 'no live challenge' };
  // Bound to its continuation: a challenge of one authorization request cannot finish another.
  if ((found.requestDigest ?? '') !== (requestId ? requestDigest(requestId) : ''))
    return { kind: 'mismatch', reason: 'request id differs' };
  const check = await checkStoredCode(deps, deps.challenges, challengeId, code);
  if (check.kind !== 'match') return check;
  if (!(await deps.challenges.consume(challengeId, nowEpoch))) return { kind: 'expired', reason: 'challenge used concurrently' };
  const user = await deps.currentUser(check.item.userId);
  if (!user || user.email !== check.item.email || (user.credentialVersion ?? 0) !== check.item.credentialVersion) {
    return { kind: 'expired', reason: 'user deleted, address or password changed since the code was sent' };
  }
  if (check.item.verifiesEmail && deps.markEmailVerified) {
    // The code reached this address, which is what verification proves.
    await deps.markEmailVerified(user.id, check.item.email, new Date(deps.clock.now()).toISOString());
  }
  return check;
}
