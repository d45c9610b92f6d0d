/**
 * The service's own CloudWatch metrics (behaviour LOG-7): counts of outcomes an operator watches,
 * emitted by the handlers through the Metrics port (lambdas/core/ports.ts). Each count is
 * published twice: under the service alone (what the alarms watch) and, where it has any, with
 * its dimensions (the dashboard's breakdown). Dimension values are codes, never free text, so
 * the number of metrics stays small. lib/dashboard.ts charts these names and lib/alarms.ts watches them.
 */
export const metricNames = {
  /** A token response (dimension `grant`: authorization_code, refresh_token, client_credentials). */
  tokenIssued: 'TokenIssued',
  /** A refused or failed token request (dimensions `grant`, or `unknown`, and `error`, the OAuth error code). */
  tokenRefused: 'TokenRefused',
  /** An API key exchanged for an access token. */
  apiKeyExchanged: 'ApiKeyExchanged',
  /** A refused or failed API-key exchange (dimension `error`). */
  apiKeyExchangeRefused: 'ApiKeyExchangeRefused',
  /** A client registered itself (RFC 7591). */
  clientRegistered: 'ClientRegistered',
  /** A registration refused by the per-address daily cap (DCR_RATE_LIMIT_PER_DAY). */
  registrationCapHit: 'RegistrationCapHit',
  /** A sign-in code mailed (first send or resend). */
  signInCodeSent: 'SignInCodeSent',
  /** A sign-in code not accepted (dimension `reason`: wrong, expired, mismatch). */
  signInCodeFailed: 'SignInCodeFailed',
  /** A sign-in refused (dimension `method`: password, passkey). */
  signInFailed: 'SignInFailed',
  /** The strangers' failed-password ceiling of one address tripped: once per address and 15-minute window (behaviour PWFAIL-5). */
  passwordCeilingReached: 'PasswordCeilingReached',
  /**
   * A signing-key rotation run that completed (whatever it had to do), or the deploy's creation or
   * check of the key set: the heartbeat whose absence KeyRotationMissed alarms on (behaviour OPS-3).
   */
  keyRotationSucceeded: 'KeyRotationSucceeded',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];
