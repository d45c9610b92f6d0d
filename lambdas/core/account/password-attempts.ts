/**
 * Failed passwords slow an attacker and never lock out the owner (behaviour PWFAIL-1..PWFAIL-5;
 * ASVS 6.1.1, 6.3.1; OWASP "Slow Down Online Guessing Attacks with Device
 * Cookies").
 *
 * Strangers share one ceiling per address: at most `failuresPerWindow` wrong passwords in a
 * 15-minute window, then password sign-in for that address from a browser without standing waits
 * for the next window. Counted per submitted address, known or not, so an unknown address gets
 * exactly the same answers as a real one.
 *
 * A browser holding a genuine device cookie of the account (device-cookies.ts) is checked first
 * and counted on its own record instead (`deviceFailuresAllowed` failures), so the strangers'
 * ceiling does not stop it; a device at its own ceiling is a stranger again until it signs in.
 *
 * Atomic: an attempt takes a slot before the password is verified (a conditional update in the
 * store), so parallel guesses cannot overrun either ceiling; a correct password gives its slot
 * back, so only failures count. When the strangers' ceiling trips, the owner is told once per
 * window (`ceilingReached`, off the request path).
 */
import { TooManyRequestsError } from '../errors';
import { newId } from '../ids';
import type { User } from '../model';
import type { Clock, Notifier, RandomSource } from '../ports';
import { verifyCredentials, type SignInDependencies } from '../sign-in';
import { createHash } from 'node:crypto';
import { deviceFailuresAllowed, type DeviceClaim } from './device-cookies';
import type { DeviceStandingStore, PasswordAttemptStore } from './ports';

export const failuresPerWindow = 10;
export const failureWindowSeconds = 900;

export interface PasswordSignInDependencies extends SignInDependencies {
  readonly attempts: PasswordAttemptStore;
  readonly devices: DeviceStandingStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  /**
   * The strangers' ceiling of `email` (trimmed, lower-cased) tripped in the window ending at
   * `windowEndEpoch`; called once per window and address, known or not. Hands the owner's mail
   * off the request path (PWFAIL-5) and never throws.
   */
  readonly ceilingReached: (email: string, windowEndEpoch: number) => Promise<void>;
}

export const tooManyFailures = (retryAfterSeconds: number) =>
  new TooManyRequestsError(
    `Too many failed sign-ins for this account. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s), or reset your password.`,
    retryAfterSeconds,
    'failed-password ceiling of the account reached',
  );

/** The counter the address's failures go to: one per address, whether or not an account has it. */
export const ceilingSubject = (email: string): string => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/**
 * verifyCredentials behind the ceilings. Undefined for a wrong password or an unknown address
 * (one answer); throws TooManyRequestsError when the attempt has no room: no device standing for
 * this account and the address's window is full.
 */
export async function signInWithPassword(
  deps: PasswordSignInDependencies,
  email: string,
  password: string,
  device?: DeviceClaim,
): Promise<User | undefined> {
  const address = email.trim().toLowerCase();
  const nowEpoch = Math.floor(deps.clock.now() / 1000);
  const token = newId('pwa_', deps.random);
  // One lookup serves the device check and the password check.
  let found: Promise<User | undefined> | undefined;
  const findUserByEmail = () => (found ??= deps.findUserByEmail(address));

  // A device of this very account, checked before the strangers' ceiling (PWFAIL-3).
  if (device) {
    const owner = await findUserByEmail();
    if (owner && owner.id === device.userId) {
      const taken = await deps.devices.take(device.nonce, owner.id, token, deviceFailuresAllowed, nowEpoch);
      if (taken === 'taken') {
        const user = await verifyCredentials({ ...deps, findUserByEmail }, address, password);
        if (user) await deps.devices.release(device.nonce, token);
        return user;
      }
      // At its own ceiling (PWFAIL-4), or its record is gone: a stranger from here on.
    }
  }

  const window = Math.floor(nowEpoch / failureWindowSeconds);
  const windowEnd = (window + 1) * failureWindowSeconds;
  const subject = ceilingSubject(address);
  const slot = await deps.attempts.take(subject, window, token, failuresPerWindow, windowEnd);
  if (!slot.taken) {
    if (!slot.notified) await tripped(deps, subject, window, address, windowEnd);
    throw tooManyFailures(windowEnd - nowEpoch);
  }
  const user = await verifyCredentials({ ...deps, findUserByEmail }, address, password);
  if (user) await deps.attempts.release(subject, window, token);
  else if (slot.full) await tripped(deps, subject, window, address, windowEnd);
  return user;
}

/** The window is full of failures: the first to see it (per window) has the owner told (PWFAIL-5). */
async function tripped(deps: PasswordSignInDependencies, subject: string, window: number, address: string, windowEnd: number) {
  if (await deps.attempts.claimNotice(subject, window, newId('pwn_', deps.random))) await deps.ceilingReached(address, windowEnd);
}

export interface CeilingNoticeDependencies {
  readonly findUserByEmail: (email: string) => Promise<User | undefined>;
  readonly notifier: Notifier<'wrong-passwords'>;
  /** `<BASE_URL>/forgot-password`, from configuration. */
  readonly forgotPasswordUrl: string;
}

/**
 * Mails the owner of `email`, if an account with a password has it, and says whose it was: the
 * owner's notice when the strangers' ceiling of their address trips (PWFAIL-5).
 */
export async function sendCeilingNotice(
  deps: CeilingNoticeDependencies,
  email: string,
  untilEpoch: number,
): Promise<{ readonly outcome: 'sent' | 'no such account'; readonly userId?: string }> {
  const user = await deps.findUserByEmail(email);
  if (!user?.email || !user.passwordHash) return { outcome: 'no such account' };
  await deps.notifier.notify(user.email, {
    kind: 'wrong-passwords',
    pausedUntilEpoch: untilEpoch,
    forgotPasswordUrl: deps.forgotPasswordUrl,
  });
  return { outcome: 'sent', userId: user.id };
}
