/** Lifetimes, in seconds. */
export const lifetimes = {
  /** Access tokens of every grant, and key-minted tokens (behaviour CLAIM-3: 3600). */
  accessToken: 3600,
  idToken: 3600,
  /** OAuth 2.1 4.1.2: short; redeemed right after the redirect. At most 10 minutes (behaviour CLAIM-3). */
  authorizationCode: 300,
  /** Sign-in to consent: the pending authorization request. */
  authorizationRequest: 600,
  /** RFC 9126 2.2: a pushed request's request_uri, short as the RFC advises (behaviour AUTHZ-16). */
  pushedAuthorizationRequest: 60,
  /** A refresh token's family ends this long after the sign-in, however often it rotates. */
  refreshFamily: 30 * 24 * 3600,
  session: 12 * 3600,
  /** Activity and audit rows are kept this long, then TTL removes them. */
  activityRetention: 90 * 24 * 3600,
  /** Behaviour CLAIM-3: a key-minted access token lives exactly this long, never refreshed. */
  apiKeyToken: 3600,
  /** Admin audit rows (api_key.create / api_key.revoke) are kept this long. */
  auditRetention: 365 * 24 * 3600,
  /**
   * A revoked or expired API key record is removed by TTL this long after it ended: longer
   * than the audit and activity retention, so every row naming a key still resolves to it.
   */
  apiKeyRetention: 400 * 24 * 3600,
  /**
   * A key written `pending` whose create never activated it (behaviour KEY-15) is removed by
   * TTL this long after its creation. Until then it is absent to every reader.
   */
  pendingApiKey: 24 * 3600,
} as const;

export type Lifetimes = { readonly [name in keyof typeof lifetimes]: number };

/**
 * The longest lifetime of any JWT this service signs: access tokens of every grant, ID tokens
 * and key-minted access tokens. A signing key stays published at least this long after it
 * stopped signing (behaviour CLAIM-10, lambdas/adapters/signing/rotation.ts), so a new kind of
 * signed token adds its lifetime here, and mintAccessToken refuses to sign past it.
 */
export function longestSignedTokenLifetime(l: Lifetimes = lifetimes): number {
  return Math.max(l.accessToken, l.idToken, l.apiKeyToken);
}

/**
 * The longest refresh rotation grace window, server-wide or a client's (behaviour REFRESH-7): a
 * client that lost a reply retries within seconds, and every second more is a second in which a
 * stolen rotated token is still worth its successor.
 */
export const maxRefreshGraceSeconds = 300;
