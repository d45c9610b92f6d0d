/**
 * The cookies of a password reset (behaviour RESET-8, RESET-9). A mailed link's token is moved
 * out of the address bar on its first GET: the page answers 303 to the bare path and keeps the
 * token in a cookie, so neither the Referer of the page's own requests, the history, nor a
 * screenshot holds it. After the reset, a second cookie carries the short-lived proof that
 * lets the same browser remove every passkey in the same step.
 *
 * Both are HttpOnly, Secure (but on a loopback http issuer, as the session cookie), scoped to
 * the one path that reads them, and SameSite=Strict: no request another site starts carries
 * them. Strict means the GET that follows the 303 of a link clicked in webmail arrives without
 * the cookie (the navigation began on the mail's site); the page then shows the form anyway, and
 * the form's own post, started on this origin, carries it. `__Secure-` (not `__Host-`, which
 * demands `Path=/`) keeps a plain-http origin from setting them.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { accountPaths } from '../core/account/paths';
import { readCookie, secureCookies } from './cookies';

type CookieEvent = Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>;

const cookieName = (issuer: string, name: string) => (secureCookies(issuer) ? `__Secure-${name}` : name);

function cookie(issuer: string, name: string, path: string, value: string, maxAgeSeconds: number): string {
  const secure = secureCookies(issuer) ? '; Secure' : '';
  return `${cookieName(issuer, name)}=${value}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; Path=${path}; HttpOnly; SameSite=Strict${secure}`;
}

/** The reset link's token, for the page and its post (`/reset-password`). */
export const resetLinkCookie = (issuer: string, token: string, maxAgeSeconds: number) =>
  cookie(issuer, 'reset', accountPaths.resetPassword, token, maxAgeSeconds);
export const clearedResetLinkCookie = (issuer: string) => cookie(issuer, 'reset', accountPaths.resetPassword, '', 0);
export const readResetLinkCookie = (event: CookieEvent, issuer: string) => readCookie(event, cookieName(issuer, 'reset')) || undefined;

/** The recovery proof of a completed reset, read only by its one form's path. */
export const recoveryCookie = (issuer: string, proof: string, maxAgeSeconds: number) =>
  cookie(issuer, 'recovery', accountPaths.resetPasskeysRemove, proof, maxAgeSeconds);
export const clearedRecoveryCookie = (issuer: string) => cookie(issuer, 'recovery', accountPaths.resetPasskeysRemove, '', 0);
export const readRecoveryCookie = (event: CookieEvent, issuer: string) => readCookie(event, cookieName(issuer, 'recovery')) || undefined;
