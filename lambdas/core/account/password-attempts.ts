/**
 * Failed passwords slow down per account (behaviour PWFAIL-1, PWFAIL-2; issue 12; ASVS 6.1.1,
 * 6.3.1): at most `failuresPerWindow` wrong passwords per account in a 15-minute window, then sign-in for that
 * account waits for the next window. Never a permanent lockout, so nobody can lock a user out
 * for longer than the window. Counted per submitted address, known or not, so an unknown
 * address gets exactly the same answers as a real one.
 *
 * Atomic: an attempt takes a slot before the password is verified (a conditional update in
 * the store), so parallel guesses cannot overrun the ceiling; a correct password gives its
 * slot back, so only failures count.
 */
import { createHash } from 'node:crypto';
import { TooManyRequestsError } from '../errors';
import { newId } from '../ids';
import type { User } from '../model';
import type { Clock, RandomSource } from '../ports';
import { verifyCredentials, type SignInDependencies } from '../sign-in';

export const failuresPerWindow = 10;
export const failureWindowSeconds = 900;

export interface PasswordAttemptStore {
  /** Takes a slot for `attemptToken` in the window; false when the window is full. */
  take(subject: string, window: number, attemptToken: string, max: number, expiresAtEpoch: number): Promise<boolean>;
  /** Gives the slot back (a correct password). */
  release(subject: string, window: number, attemptToken: string): Promise<void>;
}

export interface PasswordSignInDependencies extends SignInDependencies {
  readonly attempts: PasswordAttemptStore;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export const tooManyFailures = (retryAfterSeconds: number) =>
  new TooManyRequestsError(
    `Too many failed sign-ins for this account. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s), or reset your password.`,
    retryAfterSeconds,
    'failed-password ceiling of the account reached',
  );

/**
 * verifyCredentials behind the per-account ceiling. Undefined for a wrong password or an
 * unknown address (one answer); throws TooManyRequestsError when the account's window is full.
 */
export async function signInWithPassword(deps: PasswordSignInDependencies, email: string, password: string): Promise<User | undefined> {
  const nowEpoch = Math.floor(deps.clock.now() / 1000);
  const window = Math.floor(nowEpoch / failureWindowSeconds);
  const windowEnd = (window + 1) * failureWindowSeconds;
  const subject = createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
  const token = newId('pwa_', deps.random);
  if (!(await deps.attempts.take(subject, window, token, failuresPerWindow, windowEnd))) throw tooManyFailures(windowEnd - nowEpoch);
  const user = await verifyCredentials(deps, email, password);
  if (user) await deps.attempts.release(subject, window, token);
  return user;
}
