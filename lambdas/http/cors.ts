/**
 * Cross-origin access (behaviour HTTP-6..HTTP-8) for the route rows flagged `crossOrigin`:
 * any origin, never credentials. Those endpoints are authenticated by PKCE, client
 * authentication or bearer tokens, never by cookies, so a wildcard origin exposes nothing a
 * script could not already do from a server; without `Access-Control-Allow-Credentials` the
 * browser sends no cookie, so the session cookie of the pages is never usable cross-origin.
 * Kept free of imports: every handler bundle includes it.
 */

/** On every actual response (success and error) of a cross-origin route. */
export const crossOriginResponseHeaders: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  // Not CORS-safelisted, yet a client needs them: RFC 6750 3 error details, and the retry
  // hint of 429/503 answers (behaviour ERR-1), and the DPoP nonce to retry with (RFC 9449 8.1).
  'Access-Control-Expose-Headers': 'WWW-Authenticate, Retry-After, DPoP-Nonce',
};

/** Request headers a browser client may send: client authentication or an access token, the body's type, and a DPoP proof (RFC 9449 4.1). */
export const preflightAllowedHeaders = 'Authorization, Content-Type, DPoP';

/** Seconds a browser may reuse a preflight answer (Chromium caps it at 7200). */
export const preflightMaxAgeSeconds = 600;

/** The answer to a preflight (`OPTIONS`) for a path whose rows allow these methods. */
export function preflightHeaders(methods: readonly string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(', '),
    'Access-Control-Allow-Headers': preflightAllowedHeaders,
    'Access-Control-Max-Age': String(preflightMaxAgeSeconds),
  };
}
