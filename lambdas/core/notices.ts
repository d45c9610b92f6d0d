/**
 * What a person is told by mail, said as what happened: core sends a `Notice` through the
 * `Notifier` port (ports.ts), and lambdas/presentation/mail holds the one template per kind that
 * words it. A notice carries facts and the links the mail gives, never wording or a secret but
 * the one it exists to deliver (a code, a reset link).
 */
import type { Passkey, SelfServiceKey } from './account/ports';
import type { ApiKey, Client } from './model';

/** A passkey as a mail names it (behaviour PASSKEY-11). */
export type PasskeyMention = Pick<Passkey, 'name' | 'createdAt' | 'lastUsedAt'>;

/** A self-service API key as a mail lists it: never the secret, which is not stored anyway (behaviour KEY-2). */
export type ApiKeyMention = Pick<SelfServiceKey, 'keyId' | 'clientId' | 'name' | 'createdAt' | 'lastUsedAt' | 'pending'>;

/** How a password was changed: with a mailed reset link, or by an administrator (behaviour RESET-10). */
export type PasswordChangeWay = 'reset-link' | 'admin';

/** Absolute links under the issuer, built from configuration, never from a request's Host header. */
export interface AccountLinks {
  /** The passkeys page (lists and removes them, after signing in). */
  readonly passkeys: string;
  /** The public forgot-password page. */
  readonly forgotPassword: string;
}

/** Behaviour MFA-3: the second factor's mailed code. */
export interface SignInCodeNotice {
  readonly kind: 'sign-in-code';
  readonly code: string;
  readonly expiresInMinutes: number;
}

/** Behaviour MFA-4: the code that proves the user reads mail at the address. */
export interface EmailConfirmationCodeNotice {
  readonly kind: 'email-confirmation-code';
  readonly code: string;
  readonly expiresInMinutes: number;
}

/** Behaviour RESET-1..RESET-3: a single-use reset link. */
export interface PasswordResetLinkNotice {
  readonly kind: 'password-reset-link';
  readonly url: string;
  readonly expiresInMinutes: number;
}

/**
 * Behaviour RESET-10: the password changed; every session and refresh token ended. `undefined`
 * lists could not be read: the mail then says such credentials survive without naming them.
 */
export interface PasswordChangedNotice {
  readonly kind: 'password-changed';
  readonly way: PasswordChangeWay;
  readonly at: string;
  readonly passkeys: readonly PasskeyMention[] | undefined;
  readonly apiKeys: readonly ApiKeyMention[] | undefined;
  readonly links: AccountLinks;
}

/** Behaviour PASSKEY-12, RESET-9, RESET-13: the reset completion's "Remove all" ran. */
export interface RemovedAfterResetNotice {
  readonly kind: 'removed-after-reset';
  readonly at: string;
  readonly removedPasskeys: readonly PasskeyMention[];
  readonly revokedKeys: readonly ApiKeyMention[];
  readonly links: AccountLinks;
}

/**
 * Behaviour PWFAIL-5: the strangers' ceiling of the owner's address tripped. Nothing an attacker
 * could use: no address, count or time of an attempt.
 */
export interface WrongPasswordsNotice {
  readonly kind: 'wrong-passwords';
  /** When password sign-in from browsers without standing resumes (the window's end). */
  readonly pausedUntilEpoch: number;
  readonly forgotPasswordUrl: string;
}

/** Behaviour PASSKEY-12. */
export interface PasskeyAddedNotice {
  readonly kind: 'passkey-added';
  readonly passkey: PasskeyMention;
  readonly passkeysPageUrl: string;
}

/** Behaviour PASSKEY-12. */
export interface PasskeyRemovedNotice {
  readonly kind: 'passkey-removed';
  readonly passkey: PasskeyMention;
  readonly at: string;
  readonly passkeysPageUrl: string;
}

/** Behaviour KEY-14: a key bound to the user was created through a client; never the secret. */
export interface ApiKeyCreatedNotice {
  readonly kind: 'api-key-created';
  readonly key: Pick<ApiKey, 'keyId' | 'name' | 'scopes' | 'expiresAt'>;
  readonly client: Pick<Client, 'clientId' | 'name'>;
  readonly userName: string;
  readonly issuer: string;
  /** The admin API address a token of the client revokes the key at. */
  readonly revokeUrl: string;
}

/** Who rotated a client secret, as the admins' mail names them (behaviour ADMIN-24). */
export type RotatedBy =
  | { readonly kind: 'admin-client'; readonly clientId: string; readonly name?: string }
  | { readonly kind: 'admin-user'; readonly userId: string; readonly email?: string; readonly name?: string };

/**
 * Behaviour ADMIN-24: a client's secret was rotated; mailed to every admin. Never the secret, new
 * or old: the admin who rotated it has it, and mail is stored and forwarded by many hands.
 */
export interface ClientSecretRotatedNotice {
  readonly kind: 'client-secret-rotated';
  /** A self-registered client chose its own name (behaviour ADMIN-24): the mail says so. */
  readonly client: Pick<Client, 'clientId' | 'name' | 'registrationType'>;
  readonly rotatedBy: RotatedBy;
  readonly at: string;
  /** When the replaced secret stops working; absent when it stopped at once. */
  readonly previousSecretExpiresAt?: string;
  readonly issuer: string;
}

export type Notice =
  | SignInCodeNotice
  | EmailConfirmationCodeNotice
  | PasswordResetLinkNotice
  | PasswordChangedNotice
  | RemovedAfterResetNotice
  | WrongPasswordsNotice
  | PasskeyAddedNotice
  | PasskeyRemovedNotice
  | ApiKeyCreatedNotice
  | ClientSecretRotatedNotice;

export type NoticeKind = Notice['kind'];
/** Each kind's notice; looked up by key rather than `Extract`ed, so `Notifier<K>` compares by its kinds (ports.ts). */
type NoticesByKind = { readonly [N in Notice as N['kind']]: N };
export type NoticeOf<K extends NoticeKind> = NoticesByKind[K];
