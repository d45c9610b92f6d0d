/**
 * The sign-in session cookie: HttpOnly (no script can read it), SameSite=Lax (not sent on
 * cross-site posts, still sent when a client navigates the browser to /api/authorize),
 * Path=/, and Secure everywhere except an http issuer on a loopback host (npm start).
 * When Secure, the `__Host-` prefix also stops a sibling subdomain from planting one.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Cookies are Secure unless the issuer itself is plain http on this machine. */
export function secureCookies(issuer: string): boolean {
  const url = new URL(issuer);
  return !(url.protocol === 'http:' && loopbackHosts.has(url.hostname));
}

export function sessionCookieName(issuer: string): string {
  return secureCookies(issuer) ? '__Host-session' : 'session';
}

/** The first value of the named cookie (RFC 6265 5.4 orders the more specific path first). */
export function readCookie(event: Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>, name: string): string | undefined {
  const lines: string[] = [];
  for (const [key, values] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === 'cookie' && values) lines.push(...values);
  }
  if (lines.length === 0) {
    for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === 'cookie' && value) lines.push(value);
  }
  for (const pair of lines.join(';').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

export function sessionCookie(issuer: string, value: string, maxAgeSeconds: number): string {
  const secure = secureCookies(issuer) ? '; Secure' : '';
  return `${sessionCookieName(issuer)}=${value}; Max-Age=${maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

export function clearedSessionCookie(issuer: string): string {
  return sessionCookie(issuer, '', 0);
}
