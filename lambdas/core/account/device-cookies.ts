/**
 * Device cookies (behaviour PWFAIL-3..PWFAIL-6; OWASP "Slow Down Online Guessing Attacks
 * with Device Cookies"): a browser that completed a sign-in to an account carries a cookie naming
 * that account, so its password attempts are counted on their own and a stranger's failures
 * against the account's ceiling (PWFAIL-1) do not stop it.
 *
 * The cookie is `v1.<kid>.<base64url user id>.<nonce>.<expiry epoch>.<HMAC-SHA256>`, sealed with
 * the deployment's device-cookie key (PWFAIL-6): a forged, altered or expired cookie is dropped
 * here, before any storage is touched. A sealed cookie alone gives no standing: its nonce must
 * also name a live record of the same user (the store below), which holds the device's own
 * failures and is replaced at every sign-in from that browser, so a copied cookie dies at the
 * owner's next sign-in and is worth at most `deviceFailuresAllowed` guesses before that.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a device keeps its standing without signing in again; every sign-in renews it. */
export const deviceCookieLifetimeSeconds = 365 * 24 * 3600;
/** Wrong passwords one device may make before it loses its standing (PWFAIL-4). */
export const deviceFailuresAllowed = 5;

/** One HMAC key and the id the cookie names it by. */
export interface DeviceKey {
  readonly kid: string;
  readonly secret: string;
}

/** The current key seals new cookies; it and every previous one still open older cookies (rotation). */
export interface DeviceKeySet {
  readonly current: DeviceKey;
  readonly all: readonly DeviceKey[];
}

/** The shortest key accepted: 32 characters of a generated secret carry at least 190 bits. */
export const minimumDeviceKeyLength = 32;

const keyId = (secret: string) => createHash('sha256').update(`tollgate device cookie key\n${secret}`).digest('base64url').slice(0, 8);

/** The key set of `current` and older keys still honoured; undefined when a key is too short. */
export function deviceKeySet(current: string, previous: readonly string[] = []): DeviceKeySet | undefined {
  if ([current, ...previous].some((secret) => secret.length < minimumDeviceKeyLength)) return undefined;
  const all = [current, ...previous.filter((secret) => secret !== current)].map((secret) => ({ kid: keyId(secret), secret }));
  return { current: all[0]!, all };
}

/** What a genuine, unexpired cookie says. */
export interface DeviceClaim {
  readonly userId: string;
  /** 256 random bits, base64url; the store keeps only its digest. */
  readonly nonce: string;
  readonly expiresAtEpoch: number;
}

const mac = (key: DeviceKey, payload: string) =>
  createHmac('sha256', key.secret).update(`tollgate device cookie\n${payload}`).digest('base64url');

export function sealDeviceCookie(keys: DeviceKeySet, claim: DeviceClaim): string {
  const payload = ['v1', keys.current.kid, Buffer.from(claim.userId).toString('base64url'), claim.nonce, String(claim.expiresAtEpoch)].join(
    '.',
  );
  return `${payload}.${mac(keys.current, payload)}`;
}

const cookiePattern = /^v1\.([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/** The claim of a cookie sealed by one of `keys` and not expired at `nowEpoch`; anything else is undefined. */
export function openDeviceCookie(keys: DeviceKeySet, value: string | undefined, nowEpoch: number): DeviceClaim | undefined {
  const parts = value ? cookiePattern.exec(value) : null;
  if (!parts) return undefined;
  const [, kid, user, nonce, expiry, signature] = parts as unknown as [string, string, string, string, string, string];
  const key = keys.all.find((candidate) => candidate.kid === kid);
  if (!key) return undefined;
  const expected = Buffer.from(mac(key, value!.slice(0, value!.lastIndexOf('.'))));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const expiresAtEpoch = Number(expiry);
  if (expiresAtEpoch <= nowEpoch) return undefined;
  return { userId: Buffer.from(user, 'base64url').toString(), nonce, expiresAtEpoch };
}
