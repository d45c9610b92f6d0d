/**
 * Redirect URI registration rules (OAuth 2.1 section 2.3.1, behaviour REG-4): an absolute URI
 * compared later by exact string match (but for a loopback IP literal's port, behaviour
 * AUTHZ-13), so no wildcards, no fragment; `https`, or `http` only on a loopback host
 * (RFC 8252 section 7.3, native apps on the same machine). Shared by the admin API, dynamic
 * registration and metadata documents.
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

/**
 * `http://127.0.0.1` or `http://[::1]`, an optional port, then the rest (path and query). Written
 * out rather than parsed with URL so that nothing but the port is normalised away: the rest is
 * compared as the exact string it was registered as.
 */
const loopbackIpLiteral = /^(http:\/\/(?:127\.0\.0\.1|\[::1\]))(?::([1-9]\d{0,4}))?([/?].*)?$/s;

function loopbackParts(uri: string): { origin: string; port: number | undefined; rest: string } | undefined {
  const match = loopbackIpLiteral.exec(uri);
  if (!match) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65535) return undefined;
  return { origin: match[1]!, port, rest: match[3] ?? '' };
}

/**
 * Whether a requested redirect URI matches a registered one (behaviour AUTHZ-13): the exact
 * string, or, for `http` on the loopback IP literals, the same URI on any port, since a native
 * app's loopback listener gets whatever port the OS hands out (RFC 8252 section 7.3). Never for
 * `localhost` (RFC 8252 section 8.3: a name may resolve elsewhere) nor for `https`.
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const want = loopbackParts(registered);
  const got = want && loopbackParts(requested);
  return got !== undefined && got.origin === want!.origin && got.rest === want!.rest;
}
