/**
 * Redirect URI registration rules (OAuth 2.1 section 2.3.1, behaviour REG-4): an absolute URI
 * compared later by exact string match, so no wildcards, no fragment; `https`, or `http`
 * only on a loopback host (RFC 8252 section 7.3, native apps on the same machine).
 * Shared by the admin API and dynamic registration.
 */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export const maxRedirectUriLength = 2000;

/** Why `uri` cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length === 0 || uri.length > maxRedirectUriLength) return `must have 1 to ${maxRedirectUriLength} characters`;
  if (uri.includes('*')) return 'must not contain a wildcard';
  if (uri.includes('#')) return 'must not contain a fragment';
  if (/\s/.test(uri)) return 'must not contain whitespace';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.username || url.password) return 'must not contain user information';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return loopbackHosts.has(url.hostname) ? undefined : 'must use https (http only on a loopback host)';
  return 'must use https (http only on a loopback host)';
}
