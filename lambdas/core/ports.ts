/**
 * What the domain needs from the outside world, passed in so that lambdas/core
 * imports no AWS SDK and reads no environment.
 */
import type { MetricName } from './metrics';
import type { NoticeKind, NoticeOf } from './notices';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface RandomSource {
  /** Cryptographically secure random bytes. */
  bytes(length: number): Uint8Array;
}

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Operational counts (lambdas/core/metrics.ts): EMF documents in the log in AWS, nothing when LOG_LEVEL is silent. */
export interface Metrics {
  /** One occurrence; dimension values are codes (a grant type, an error code), never free text. */
  count(metric: MetricName, dimensions?: Readonly<Record<string, string>>): void;
}

export interface ScopeDefinition {
  readonly name: string;
  readonly description: string;
  /** Listed in discovery `scopes_supported`; admin scopes are not. */
  readonly discoverable: boolean;
}

export interface ScopeCatalog {
  listScopes(): Promise<readonly ScopeDefinition[]>;
}

/** Password-style hashing (Argon2id, policy from HASH_METHOD) for passwords and secrets. */
export interface Hasher {
  hash(secret: string): Promise<string>;
  /** False for a wrong secret or a malformed hash; never throws for bad input. */
  verify(hash: string, secret: string): Promise<boolean>;
  /**
   * Spends the time of one verification against a hash of the current policy, for an
   * unknown id, so that the response time does not reveal whether the id exists.
   */
  verifyDummy(secret: string): Promise<void>;
}

/** Signs JWTs with the current key (adapters/signing). */
export interface TokenSigner {
  readonly kid: string;
  sign(claims: Record<string, unknown>, options: { expiresIn: number; type?: string; issuedAt: number }): Promise<string>;
}

/** A mail as written (lambdas/presentation/mail), ready for the mailer. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  /** Plain text. Never a secret: mail is stored and forwarded by many hands. */
  readonly text: string;
  /** The same content as HTML, with the site's title and logo (behaviour SITE-4); the text stays the content of record. */
  readonly html?: string;
}

/** Outbound mail (SES in AWS, an outbox folder locally). Rejects when the mail was not accepted. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Tells a person what happened (notices.ts); the wiring words the notice with its template and
 * mails it. Rejects when the mail was not accepted. `K` are the kinds a use case sends: the wiring
 * hands it a notifier holding only their templates, so a function bundles the words of its own
 * mails, and a kind sent without its template does not compile (`notify` is a property, so its
 * parameter is checked contravariantly).
 */
export interface Notifier<K extends NoticeKind = NoticeKind> {
  readonly notify: (to: string, notice: NoticeOf<K>) => Promise<void>;
}

/** What a one-time identifier was used for; each purpose is its own namespace. */
export type SingleUsePurpose = 'dpop-proof' | 'client-assertion' | 'authorization-grant';

/**
 * Remembers one-time identifiers (a DPoP proof's `jti`, RFC 9449 §11.1; a JWT assertion's `jti`,
 * RFC 7523 §3 item 7) until they expire, so a replay is refused. `issuer` scopes the id: two
 * issuers may pick the same `jti`. Shared by every container (storage, not memory): a replay
 * may land on another container.
 */
export interface SingleUseIds {
  /** True the first time; false when the id was already used and has not yet expired. */
  use(purpose: SingleUsePurpose, issuer: string, jti: string, expiresAtEpoch: number): Promise<boolean>;
}
