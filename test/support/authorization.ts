/**
 * Browser-like helpers for the sign-in and authorization handler tests: PKCE pairs, a valid
 * authorization request, forms, and cookie handling as a browser would do it. Their users and
 * clients come from test/support/fixtures.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import type { Client } from '../../lambdas/core/model';
import { s256 } from '../../lambdas/core/pkce';
import { headerOf } from './events';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

/** A complete, valid authorization request for `client`, with overrides (undefined removes a parameter). */
export function authorizeQuery(client: Client, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0],
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
    scope: 'openid profile',
    state: 'xyz-state',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
}

/** `name=value` of the Set-Cookie in a response, as the browser would send it back. */
export function cookieOf(result: APIGatewayProxyResult): string {
  const setCookie = headerOf(result, 'set-cookie');
  if (!setCookie) throw new Error(`no Set-Cookie in a ${result.statusCode} response`);
  return setCookie.split(';')[0]!;
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** What a current browser sends with a form posted from one of our pages (extra: undefined removes a header). */
export const browserHeaders = (extra: Record<string, string | undefined> = {}): Record<string, string> => {
  const headers: Record<string, string | undefined> = {
    Accept: 'text/html,application/xhtml+xml',
    'Content-Type': 'application/x-www-form-urlencoded',
    'Sec-Fetch-Site': 'same-origin',
    Origin: process.env.BASE_URL!,
    ...extra,
  };
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
};

/** The value of a hidden input in a rendered form. */
export function hiddenField(body: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
  if (!match) throw new Error(`no hidden field ${name}`);
  return match[1]!;
}

export function locationOf(result: APIGatewayProxyResult): URL {
  const location = headerOf(result, 'location');
  if (!location) throw new Error(`no Location in a ${result.statusCode} response`);
  return new URL(location);
}
