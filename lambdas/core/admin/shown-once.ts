/**
 * A secret shown once after a dashboard form (behaviour DASH-13): the form's POST keeps it in a
 * single-use record for ten minutes and answers 303 to a page that takes it out once, for the admin
 * who made it. A reload or Back finds the record claimed and never shows the secret again, nor
 * repeats the change (the POST is not re-sent: it was answered by a redirect).
 */
import type { Clock, RandomSource } from '../ports';

/** What the secret is, so the page can say what to do when it is gone. */
export type ShownOncePurpose = 'client-secret' | 'api-key' | 'rotated-secret';

export interface ShownOnce {
  readonly purpose: ShownOncePurpose;
  readonly clientId: string;
  readonly secret: string;
  /** The API key's id (`api-key`). */
  readonly keyId?: string;
  /** Until when the replaced secret keeps working (`rotated-secret`). */
  readonly previousSecretExpiresAt?: string;
}

export interface ShownOnceStore {
  /** Keeps `shown` for `adminId` under the handle (sealed with it: the table alone cannot open it) until `expiresAtEpoch`. */
  keep(handle: string, adminId: string, shown: ShownOnce, expiresAtEpoch: number): Promise<void>;
  /**
   * The record, claimed by this call: undefined when absent, expired, already claimed, or kept for
   * another admin or purpose (left unclaimed then, so its own admin still gets it).
   */
  claim(handle: string, adminId: string, purpose: ShownOncePurpose, nowEpoch: number): Promise<ShownOnce | undefined>;
}

export interface ShownOnceDependencies {
  readonly shownOnce: ShownOnceStore;
  readonly clock: Clock;
  readonly random: RandomSource;
}

/** Behaviour DASH-13: long enough to follow the redirect, short enough that a forgotten handle soon means nothing. */
export const shownOnceSeconds = 10 * 60;

/** Keeps the secret for one showing; the handle (256 random bits) goes in the redirect's query string. */
export async function keepForOneShowing(deps: ShownOnceDependencies, adminId: string, shown: ShownOnce): Promise<string> {
  const handle = Buffer.from(deps.random.bytes(32)).toString('base64url');
  await deps.shownOnce.keep(handle, adminId, shown, Math.floor(deps.clock.now() / 1000) + shownOnceSeconds);
  return handle;
}

/** The secret, once, for the admin it was kept for; undefined from then on. */
export async function takeShownOnce(
  deps: Pick<ShownOnceDependencies, 'shownOnce' | 'clock'>,
  handle: string,
  adminId: string,
  purpose: ShownOncePurpose,
): Promise<ShownOnce | undefined> {
  // A handle is 43 characters of base64url; anything else was never one.
  if (!/^[A-Za-z0-9_-]{43}$/.test(handle)) return undefined;
  return deps.shownOnce.claim(handle, adminId, purpose, Math.floor(deps.clock.now() / 1000));
}
