/** Lifetimes, in seconds. */
export const lifetimes = {
  /** Access tokens of every grant, and key-minted tokens (spec 2.6: 3600). */
  accessToken: 3600,
  idToken: 3600,
  /** OAuth 2.1 4.1.2: short; redeemed right after the redirect. At most 10 minutes (spec). */
  authorizationCode: 300,
  /** Sign-in to consent: the pending authorization request. */
  authorizationRequest: 600,
  /** A refresh token's family ends this long after the sign-in, however often it rotates. */
  refreshFamily: 30 * 24 * 3600,
  session: 12 * 3600,
  /** Activity and audit rows are kept this long, then TTL removes them. */
  activityRetention: 90 * 24 * 3600,
} as const;
