/**
 * What the account use cases (lambdas/core/account/*) need from storage and from the WebAuthn
 * library, and the records those stores hold; the DynamoDB stores (lambdas/adapters/dynamodb/) and
 * lambdas/adapters/webauthn.ts satisfy them structurally. Each use case's own dependency bag
 * (`XxxDependencies`) stays beside it.
 */
import type { AdminAuditEntry, ApiKey, User } from '../model';

export interface StoredCode {
  readonly codeHash: string;
  readonly maxAttempts: number;
  readonly expiresAtEpoch: number;
}

export interface CodeAttemptStore<T extends StoredCode> {
  /**
   * Counts one attempt, identified by `attemptToken` (a resend of this very update counts
   * once), unless the cap is reached or the item is absent, expired or used; returns the item
   * as it stood after counting, so the code compared is the one the attempt was counted against.
   * Once every attempt is counted the code is used up: never counted again, never live.
   */
  countAttempt(id: string, attemptToken: string, nowEpoch: number): Promise<AttemptCount & { readonly item?: T }>;
  delete(id: string): Promise<void>;
}

/** What counting one attempt against a stored code found. */
export type AttemptCount =
  | { readonly kind: 'counted'; readonly used: number }
  /** The cap was reached before this attempt: the code must not be evaluated. */
  | { readonly kind: 'exhausted' }
  /** No such code, or it expired or was used. */
  | { readonly kind: 'absent' };

export interface SignInChallenge extends StoredCode {
  readonly userId: string;
  /** The address the code went to; the user's address must still be this one. */
  readonly email: string;
  /** The user's credentialVersion at the password check: a password change since kills the challenge. */
  readonly credentialVersion: number;
  /** A correct code also verifies the address (REQUIRE_VERIFIED_EMAIL). */
  readonly verifiesEmail: boolean;
  /** Where the sign-in page would have sent the browser (already a safe same-origin path). */
  readonly returnTo?: string;
  /** SHA-256 of the authorization request id: the code page posts the id back, and it must match. */
  readonly requestDigest?: string;
}

export interface ChallengeStore extends CodeAttemptStore<SignInChallenge> {
  save(id: string, challenge: SignInChallenge): Promise<void>;
  get(id: string, nowEpoch: number): Promise<SignInChallenge | undefined>;
  /** Single use: true for exactly one caller (a resend of the same claim included). */
  consume(id: string, nowEpoch: number): Promise<boolean>;
  /** A new code for a live challenge, its attempts reset; false when it is gone. */
  replaceCode(id: string, codeHash: string, expiresAtEpoch: number, nowEpoch: number): Promise<boolean>;
}

export interface VerificationCode extends StoredCode {
  readonly userId: string;
  /** The address the code was sent to. */
  readonly email: string;
}

export interface VerificationStore extends CodeAttemptStore<VerificationCode> {
  /** Replaces any earlier code of the user. */
  save(userId: string, code: VerificationCode): Promise<void>;
  /**
   * One transaction: the code item is deleted (it must still hold `codeHash`) and the user
   * gets `emailVerifiedAt`, only if their address is still `email`. False when either failed.
   */
  confirm(code: VerificationCode, verifiedAt: string): Promise<boolean>;
}

/**
 * How often the service itself sends mail to one user or address (behaviour MFA-8, VERIFY-3, RESET-2): not only the
 * edge, whose per-IP rules a botnet spreads thin. A send is allowed when the previous one
 * is at least `minIntervalSeconds` old and fewer than `perHour` went out in the last hour.
 */
export interface SendRatePolicy {
  readonly minIntervalSeconds: number;
  readonly perHour: number;
}

export type SendRateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export interface SendRateStore {
  /** Records a send for `subject` when the policy allows it (atomically), else says when to retry. */
  take(subject: string, policy: SendRatePolicy, nowEpoch: number): Promise<SendRateDecision>;
}

/** How a device's failure slot was asked for. */
export type DeviceTake = 'taken' | 'at-ceiling' | 'no-standing';

/**
 * The devices' records (ephemeral table, docs/storage-schema.md `DEVICE#`): one per cookie nonce,
 * naming its user, holding the device's failures as slots like the account window does.
 */
export interface DeviceStandingStore {
  /**
   * Takes a failure slot for `attemptToken` on the live record of `nonce` when it names `userId`
   * and holds fewer than `max` slots (one conditional update, so parallel guesses cannot overrun it).
   */
  take(nonce: string, userId: string, attemptToken: string, max: number, nowEpoch: number): Promise<DeviceTake>;
  /** Gives the slot back (a correct password). */
  release(nonce: string, attemptToken: string): Promise<void>;
  /** The record of a new cookie, after a completed sign-in. */
  create(nonce: string, userId: string, expiresAtEpoch: number, createdAt: string): Promise<void>;
  /** Forgets a cookie's record (it was replaced); idempotent. */
  remove(nonce: string): Promise<void>;
}

/** What the window looked like once this attempt had its slot. */
export interface AttemptSlot {
  /** False when the window was already full: the attempt is refused unchecked. */
  readonly taken: boolean;
  /** The window is full with this slot in it. */
  readonly full: boolean;
  /** The owner was already told this window (known only when the slot was refused); saves a claim per refusal. */
  readonly notified?: boolean;
}

export interface PasswordAttemptStore {
  /** Takes a slot for `attemptToken` in the window unless it is full. */
  take(subject: string, window: number, attemptToken: string, max: number, expiresAtEpoch: number): Promise<AttemptSlot>;
  /** Gives the slot back (a correct password). */
  release(subject: string, window: number, attemptToken: string): Promise<void>;
  /** True for exactly one caller per window (the one told to notify the owner); a resend of that call stays true. */
  claimNotice(subject: string, window: number, claimToken: string): Promise<boolean>;
}

export interface ResetLink {
  readonly userId: string;
  /** The address the link was mailed to. */
  readonly email: string;
  readonly credentialVersion: number;
  readonly expiresAtEpoch: number;
}

/**
 * What a completed reset hands its browser (as a cookie): the used link cannot authenticate a
 * second step, so the removal of passkeys carries this proof instead. Stored only as a digest,
 * single use, and bound to the password the reset set.
 */
export interface RecoveryProof {
  readonly userId: string;
  /** The user's credentialVersion after the reset: any later password change ends the proof. */
  readonly credentialVersion: number;
  readonly expiresAtEpoch: number;
}

/** Behaviour RESET-9: what the removal's first write checks and sets on the user. */
export interface RecoveryUse {
  readonly userId: string;
  /** The user's credentialVersion and passkeyGeneration as read: still those, or nothing is written. */
  readonly seen: { readonly credentialVersion: number; readonly passkeyGeneration: number };
  readonly next: { readonly credentialVersion: number; readonly passkeyGeneration: number };
  readonly at: string;
}

export interface ResetLinkStore {
  /** Stores the link and makes it the user's only live one (replacing the pointer). */
  issue(digest: string, link: ResetLink): Promise<void>;
  /** The live link of this digest that is still the user's newest; nothing is consumed. */
  find(digest: string, nowEpoch: number): Promise<ResetLink | undefined>;
  /** The user as stored now (strongly consistent). */
  currentUser(userId: string): Promise<User | undefined>;
  /**
   * The single-use transaction described above, which also stores the recovery proof under its
   * digest (so the proof exists exactly when the reset happened); false when any condition failed.
   */
  redeem(
    digest: string,
    link: ResetLink,
    change: { readonly passwordHash: string; readonly credentialVersion: number; readonly at: string },
    nowEpoch: number,
    recovery: { readonly digest: string; readonly proof: RecoveryProof },
  ): Promise<boolean>;
  /** The proof, when it is live and unused; nothing is consumed. */
  findRecovery(digest: string, nowEpoch: number): Promise<RecoveryProof | undefined>;
  /**
   * One transaction: uses the proof up (still live and unused) and moves the user's
   * credentialVersion and passkeyGeneration from `seen` to `next`; false when any condition
   * failed (the proof used or expired meanwhile, the password changed). The DynamoDB client's
   * resend of it is the same use.
   */
  useRecovery(digest: string, use: RecoveryUse, nowEpoch: number): Promise<boolean>;
}

/** A self-service key as the user's partition holds it; `pending` while its create is in flight (behaviour KEY-15). */
export type SelfServiceKey = ApiKey & { readonly pending?: true };

export interface SelfServiceKeyReader {
  /** Every self-service key of the user not yet revoked, pending ones included, read strongly consistently. */
  selfServiceKeysOf(userId: string): Promise<SelfServiceKey[]>;
}

export interface Passkey {
  /** base64url credential id, as the browser reports it. */
  readonly credentialId: string;
  readonly userId: string;
  /** base64url COSE public key. */
  readonly publicKey: string;
  /** Signature counter; 0 when the authenticator keeps none (synced passkeys). */
  readonly counter: number;
  readonly transports?: readonly string[];
  /** Backed up (synced) at registration: such passkeys move between devices. */
  readonly backedUp: boolean;
  readonly createdAt: string;
  readonly lastUsedAt?: string;
  /**
   * What the owner called it when adding it, or the browser and system it was added from
   * (behaviour PASSKEY-11). Absent on passkeys added before names existed.
   */
  readonly name?: string;
  /**
   * The owner's passkeyGeneration when it was added (behaviour PASSKEY-13): it signs in only while
   * the owner's is still this one. Absent means 0.
   */
  readonly generation?: number;
}

/**
 * What a registration is held to when it is written (behaviour PASSKEY-14): the owner's
 * credentialVersion as the adding session carries it, and the generation the passkey is given.
 */
export interface PasskeyOwnerState {
  readonly credentialVersion: number;
  readonly passkeyGeneration: number;
}

export interface PasskeyStore {
  /**
   * Writes the passkey only while its owner's credentialVersion and passkeyGeneration are still
   * `owner` (one transaction with a check of the user record, behaviour PASSKEY-14): `outdated`
   * when they moved (the adding session ended meanwhile), `duplicate` when a passkey with this
   * credential id exists already (any user).
   */
  add(passkey: Passkey, owner: PasskeyOwnerState): Promise<'added' | 'duplicate' | 'outdated'>;
  /** The stored passkey, of whatever generation. */
  get(credentialId: string): Promise<Passkey | undefined>;
  /** The user's passkeys that still sign in: of the user's current generation (behaviour PASSKEY-13), oldest first. */
  listOf(userId: string): Promise<Passkey[]>;
  /** False when the user has no such passkey. An admin's removal passes its `audit` entry, written in the same transaction (behaviour LOG-9). */
  remove(userId: string, credentialId: string, audit?: AdminAuditEntry): Promise<boolean>;
  /**
   * Stores a use: the counter only moves forwards (or stays 0 for an authenticator without
   * one); false when another use got there first.
   */
  recordUse(credentialId: string, counter: number, usedAt: string): Promise<boolean>;
  /**
   * Removes every passkey record of the user, of any generation, read from the user's own
   * partition strongly consistently (never an index that lags); answers what it removed.
   */
  removeAllOf(userId: string): Promise<Passkey[]>;
}

export interface Ceremony {
  readonly kind: 'register' | 'sign-in';
  /** Registration only: the user the options were made for. */
  readonly userId?: string;
  readonly expiresAtEpoch: number;
}

export interface CeremonyStore {
  save(challenge: string, ceremony: Ceremony): Promise<void>;
  /** Single use: the ceremony for exactly one caller (the DynamoDB client's resend of that call included). */
  consume(challenge: string, nowEpoch: number): Promise<Ceremony | undefined>;
}

/** What every verification checks besides the signature (WebAuthn 7.1 steps 8-17, 7.2 steps 11-21). */
export interface ExpectedCeremony {
  readonly challenge: string;
  readonly origin: string;
  readonly rpId: string;
}

export interface VerifiedRegistration {
  readonly credentialId: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports?: readonly string[];
  readonly backedUp: boolean;
}

/** Resolves undefined for any failed check: the reason is logged by the implementation's caller, never shown. */
export interface PasskeyVerifier {
  registration?(response: unknown, expected: ExpectedCeremony): Promise<VerifiedRegistration | undefined>;
  assertion?(response: unknown, expected: ExpectedCeremony, passkey: Passkey): Promise<{ readonly counter: number } | undefined>;
}
