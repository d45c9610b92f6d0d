/**
 * Passkeys (behaviour PASSKEY-1..PASSKEY-9): WebAuthn registration by a signed-in,
 * recently authenticated user, and sign-in with a discoverable credential. This module builds
 * the ceremony options and runs the ceremonies; the cryptographic verification is a port
 * (`PasskeyVerifier`), implemented with @simplewebauthn/server (lambdas/adapters/webauthn.ts) only for the two verify functions,
 * so no other function carries that library's weight.
 *
 * A ceremony's challenge is 256 random bits; the store keeps only its digest and it is
 * consumed (single use) before anything is verified, so a replayed response finds nothing.
 */
import type { MfaPolicy } from '../model';
import { newSecret } from '../ids';
import type { AdminAuditEntry, User } from '../model';
import { accountPaths } from './paths';
import { lacksRequiredFactor } from './second-factor';
import type { NoticeOf } from '../notices';
import type { Clock, Logger, Notifier, RandomSource } from '../ports';
import type { Ceremony, CeremonyStore, Passkey, PasskeyStore, PasskeyVerifier } from './ports';

/** WebAuthn ceremony lifetime (ASVS 6.7.2 asks for short-lived challenges). */
export const ceremonyLifetimeSeconds = 300;
/** Adding or removing a passkey needs a sign-in at most this old (ASVS 6.5.6 "re-authenticate"). */
export const recentAuthenticationSeconds = 600;
/**
 * RFC 8176: `hwk` proof of possession of a key, `user` a user-presence test, and `mfa` since
 * user verification (PIN or biometric on the device) is required: something had and something
 * known or been.
 */
export const passkeyAmr = ['hwk', 'user', 'mfa'] as const;

/** Behaviour PASSKEY-13: the passkey is of the owner's current generation (absent counts as 0 on both sides). */
export const isOfCurrentGeneration = (passkey: Pick<Passkey, 'generation'>, owner: Pick<User, 'passkeyGeneration'>): boolean =>
  (passkey.generation ?? 0) === (owner.passkeyGeneration ?? 0);

/** `2026-05-01 10:00 UTC`: the minute, in the one zone every reader can place. */
export const utcMinute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** How pages and mails name a passkey (behaviour PASSKEY-11). */
export const passkeyLabel = (passkey: Pick<Passkey, 'name' | 'createdAt'>) =>
  passkey.name ?? `Passkey added ${utcMinute(passkey.createdAt)}`;

const browsers: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const systems: readonly [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * The name of a passkey its owner did not name: the browser and system of the request that
 * added it, e.g. "Chrome on macOS" (behaviour PASSKEY-11). Only a hint, since a User-Agent is
 * whatever the caller says; the mail's time and the list's dates are what to check.
 */
export function defaultPasskeyName(userAgent: string | undefined): string {
  const browser = browsers.find(([pattern]) => pattern.test(userAgent ?? ''))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent ?? ''))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `Passkey on ${system}` : 'Passkey');
}

/** What the ceremonies and the page read; mailing nothing, a function that only signs in or lists does not bundle the mails. */
export interface PasskeyCeremonyDependencies {
  readonly passkeys: PasskeyStore;
  readonly ceremonies: CeremonyStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly log: Logger;
  readonly rpId: string;
  /** The issuer's origin: the only one whose responses are accepted. */
  readonly origin: string;
  readonly rpName: string;
  /** The issuer: the mails link to the passkeys page under it. */
  readonly baseUrl: string;
  readonly currentUser: (userId: string) => Promise<User | undefined>;
}

type PasskeyNoticeKind = 'passkey-added' | 'passkey-removed';

/** Adding or removing a passkey also tells its user (behaviour PASSKEY-12); `K` the mails a door sends, so it bundles only their templates. */
export interface PasskeyDependencies<K extends PasskeyNoticeKind = PasskeyNoticeKind> extends PasskeyCeremonyDependencies {
  readonly notifier: Notifier<K>;
}

export type Refusal = { readonly kind: 'refused'; readonly reason: string };
/** The session that was adding the passkey ended while it did (behaviour PASSKEY-14): sign in again. */
export type Outdated = { readonly kind: 'outdated'; readonly reason: string };
const refused = (reason: string): Refusal => ({ kind: 'refused', reason });

const epoch = (clock: Clock) => Math.floor(clock.now() / 1000);

export const isRecentlyAuthenticated = (authTime: number, clock: Clock) => epoch(clock) - authTime <= recentAuthenticationSeconds;

/** The WebAuthn user handle: the user id's bytes (never the address, WebAuthn 14.6.1). */
export const userHandleOf = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

async function newCeremony(deps: PasskeyCeremonyDependencies, kind: Ceremony['kind'], userId?: string): Promise<string> {
  const challenge = newSecret(deps.random);
  await deps.ceremonies.save(challenge, {
    kind,
    ...(userId ? { userId } : {}),
    expiresAtEpoch: epoch(deps.clock) + ceremonyLifetimeSeconds,
  });
  return challenge;
}

/** PublicKeyCredentialCreationOptionsJSON (WebAuthn 5.4) for PublicKeyCredential.parseCreationOptionsFromJSON. */
export async function registrationOptions(deps: PasskeyCeremonyDependencies, user: User, existing: readonly Passkey[]) {
  const challenge = await newCeremony(deps, 'register', user.id);
  return {
    rp: { id: deps.rpId, name: deps.rpName },
    user: { id: userHandleOf(user.id), name: user.email ?? user.id, displayName: user.name },
    challenge,
    // ES256, then EdDSA and RS256 for authenticators without P-256.
    pubKeyCredParams: [-7, -8, -257].map((alg) => ({ type: 'public-key' as const, alg })),
    timeout: ceremonyLifetimeSeconds * 1000,
    excludeCredentials: existing.map((p) => ({
      type: 'public-key' as const,
      id: p.credentialId,
      ...(p.transports ? { transports: p.transports } : {}),
    })),
    authenticatorSelection: { residentKey: 'required' as const, requireResidentKey: true, userVerification: 'required' as const },
    attestation: 'none' as const,
  };
}

/** What the passkeys page shows (behaviour PASSKEY-1, PASSKEY-2): the user's passkeys, and a new ceremony to add one. */
export async function passkeysToManage(deps: PasskeyCeremonyDependencies, user: User) {
  const passkeys = await deps.passkeys.listOf(user.id);
  return { passkeys, creationOptions: await registrationOptions(deps, user, passkeys) };
}

/**
 * Whether a session may see, add or remove its user's passkeys: signed in within the last 10
 * minutes (behaviour PASSKEY-1) with every factor the MFA policy now asks of them; a sign-in
 * without it must not add the passkey that would give it one (behaviour MFA-9).
 */
export async function mayManagePasskeys(
  session: { readonly authTime: number; readonly amr?: readonly string[] },
  user: Pick<User, 'admin'>,
  clock: Clock,
  mfaPolicy: () => Promise<MfaPolicy>,
): Promise<boolean> {
  if (!isRecentlyAuthenticated(session.authTime, clock)) return false;
  return !(await lacksRequiredFactor(user, session.amr, mfaPolicy));
}

/** PublicKeyCredentialRequestOptionsJSON: no allowCredentials, so the authenticator offers its discoverable passkeys. */
export async function signInOptions(deps: PasskeyCeremonyDependencies) {
  const challenge = await newCeremony(deps, 'sign-in');
  return { challenge, rpId: deps.rpId, timeout: ceremonyLifetimeSeconds * 1000, userVerification: 'required' as const };
}

/** The challenge the client signed, read from clientDataJSON (the verifier checks it again). */
export function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && /^[A-Za-z0-9_-]{43}$/.test(data.challenge) ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

async function claimCeremony(deps: PasskeyCeremonyDependencies, clientDataJSON: string, kind: Ceremony['kind']) {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) return refused('clientDataJSON carries no challenge of ours');
  const ceremony = await deps.ceremonies.consume(challenge, epoch(deps.clock));
  if (!ceremony) return refused('challenge unknown, expired or already used');
  if (ceremony.kind !== kind) return refused(`challenge belongs to a ${ceremony.kind} ceremony`);
  return { kind: 'claimed' as const, ceremony, expected: { challenge, origin: deps.origin, rpId: deps.rpId } };
}

export interface RegistrationResponse {
  readonly id: string;
  readonly response: { readonly clientDataJSON: string };
}

/**
 * `user` is the adding session's user as read for this request, of the session's
 * credentialVersion (lambdas/http/session.ts): the passkey is written only while the stored user
 * still has that version and generation (behaviour PASSKEY-14), so a registration that lands after
 * a password change or the reset's "Remove all passkeys" (RESET-9) stores nothing. Checked only
 * at the start, a registration posted while the removal ran could survive it.
 */
export async function finishRegistration(
  deps: PasskeyDependencies<'passkey-added'>,
  verifier: Required<Pick<PasskeyVerifier, 'registration'>>,
  user: User,
  response: RegistrationResponse,
  /** The owner's name for it, or defaultPasskeyName's (behaviour PASSKEY-11). */
  name: string,
): Promise<{ readonly kind: 'added'; readonly passkey: Passkey } | Refusal | Outdated> {
  const claim = await claimCeremony(deps, response.response.clientDataJSON, 'register');
  if (claim.kind === 'refused') return claim;
  if (claim.ceremony.userId !== user.id) return refused('challenge was made for another user');
  const verified = await verifier.registration(response, claim.expected);
  if (!verified) return refused('registration response failed verification');
  const passkey: Passkey = {
    credentialId: verified.credentialId,
    userId: user.id,
    publicKey: verified.publicKey,
    counter: verified.counter,
    ...(verified.transports?.length ? { transports: verified.transports } : {}),
    backedUp: verified.backedUp,
    createdAt: new Date(deps.clock.now()).toISOString(),
    name,
    generation: user.passkeyGeneration ?? 0,
  };
  const stored = await deps.passkeys.add(passkey, {
    credentialVersion: user.credentialVersion ?? 0,
    passkeyGeneration: user.passkeyGeneration ?? 0,
  });
  if (stored === 'outdated')
    return { kind: 'outdated', reason: 'the session ended (credential version moved) while the passkey was added' };
  if (stored === 'duplicate') return refused('credential id registered already');
  await notify(deps, user, { kind: 'passkey-added', passkey, passkeysPageUrl: passkeysPageUrl(deps) });
  return { kind: 'added', passkey };
}

export interface AssertionResponse {
  readonly id: string;
  readonly response: { readonly clientDataJSON: string; readonly userHandle?: string };
}

/**
 * The owner is read (strongly consistent) before the passkey is used, and the session the caller
 * starts carries that read's credentialVersion (behaviour PASSKEY-3, RESET-9): of a sign-in that
 * overlaps the reset's "Remove all passkeys", either the read came before the removal's first
 * write, and the session is of the old version and ends at its first use (RESET-12), or it came
 * after, and the passkey is of an older generation and signs no one in (PASSKEY-13). Read after
 * the use, as before, a sign-in in flight could start a session the removal never saw.
 */
export async function finishSignIn(
  deps: PasskeyCeremonyDependencies,
  verifier: Required<Pick<PasskeyVerifier, 'assertion'>>,
  response: AssertionResponse,
): Promise<{ readonly kind: 'signed-in'; readonly user: User } | Refusal> {
  const claim = await claimCeremony(deps, response.response.clientDataJSON, 'sign-in');
  if (claim.kind === 'refused') return claim;
  const passkey = await deps.passkeys.get(response.id);
  if (!passkey) return refused('unknown or removed credential');
  if (response.response.userHandle !== undefined && response.response.userHandle !== userHandleOf(passkey.userId))
    return refused('user handle differs from the passkey owner');
  const user = await deps.currentUser(passkey.userId);
  if (!user) return refused('passkey owner no longer exists');
  if (!isOfCurrentGeneration(passkey, user)) return refused('passkey of an older generation (all passkeys were removed since)');
  const verified = await verifier.assertion(response, claim.expected, passkey);
  if (!verified) return refused('assertion failed verification');
  // WebAuthn 7.2 step 21: a counter that does not move forwards suggests a cloned authenticator.
  if (!(await deps.passkeys.recordUse(passkey.credentialId, verified.counter, new Date(deps.clock.now()).toISOString())))
    return refused('signature counter did not move forwards');
  return { kind: 'signed-in', user };
}

/** `audit`: an admin's removal (core/admin/user-credentials.ts), its entry written with the removal (behaviour LOG-9). */
export async function removePasskey(
  deps: PasskeyDependencies<'passkey-removed'>,
  user: User,
  credentialId: string,
  audit?: AdminAuditEntry,
): Promise<boolean> {
  const passkey = await deps.passkeys.get(credentialId);
  if (passkey?.userId !== user.id || !(await deps.passkeys.remove(user.id, credentialId, audit))) return false;
  await notify(deps, user, {
    kind: 'passkey-removed',
    passkey,
    at: new Date(deps.clock.now()).toISOString(),
    passkeysPageUrl: passkeysPageUrl(deps),
  });
  return true;
}

const passkeysPageUrl = (deps: Pick<PasskeyDependencies, 'baseUrl'>) => `${deps.baseUrl}${accountPaths.passkeys}`;

/** Best effort, as the password-change mail: the change has happened, and a mail outage must not report it as failed. */
async function notify<K extends PasskeyNoticeKind>(
  deps: Pick<PasskeyDependencies<K>, 'notifier' | 'log'>,
  user: User,
  notice: NoticeOf<K>,
): Promise<void> {
  if (!user.email) return;
  try {
    await deps.notifier.notify(user.email, notice);
  } catch (error) {
    deps.log.warn(`${notice.kind} mail not sent`, { userId: user.id, error: (error as Error).name });
  }
}
