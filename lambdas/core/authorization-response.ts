/**
 * The authorization response (OAuth 2.1 4.1.2 and 4.1.2.1, RFC 9207): parameters are added
 * to the registered redirect URI's query, keeping any query it already has exactly as
 * registered (re-serializing it could change its encoding, and the client compares it).
 */
import type { OAuthError } from './errors';

export type ResponseParameters = Readonly<Record<string, string | undefined>>;

export function redirectWithParameters(redirectUri: string, parameters: ResponseParameters): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) query.append(name, value);
  // Registered redirect URIs carry no fragment (RFC 6749 3.1.2); keep one after the query if present.
  const hashAt = redirectUri.indexOf('#');
  const [base, fragment] = hashAt < 0 ? [redirectUri, ''] : [redirectUri.slice(0, hashAt), redirectUri.slice(hashAt)];
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${query.toString()}${fragment}`;
}

/** Success: `code`, `state` when the client sent one, and `iss` (RFC 9207 2). */
export function successRedirect(redirectUri: string, code: string, state: string | undefined, issuer: string): string {
  return redirectWithParameters(redirectUri, { code, state, iss: issuer });
}

/** Error: `error`, `error_description`, `state` and `iss` (RFC 6749 4.1.2.1, RFC 9207 2). */
export function errorRedirect(redirectUri: string, error: OAuthError, state: string | undefined, issuer: string): string {
  return redirectWithParameters(redirectUri, { error: error.code, error_description: error.description, state, iss: issuer });
}
