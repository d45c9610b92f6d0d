/**
 * The passkey endpoints called as a browser calls them (behaviour PASSKEY-*): the
 * passkeys page and its creation options, a registration or sign-in posted with the software
 * authenticator's response (test/support/webauthn.ts), and a session as a sign-in leaves it.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { handler as registerHandler } from '../../lambdas/handlers/passkey-register';
import { handler as optionsHandler } from '../../lambdas/handlers/passkey-sign-in-options';
import { handler as signInHandler } from '../../lambdas/handlers/passkey-sign-in';
import { handler as pageHandler } from '../../lambdas/handlers/passkeys-page';
import { getSessions, getUsers } from '../../lambdas/wiring/repositories';
import type { TestUser } from './fixtures';
import { browserHeaders, form } from './authorization';
import { apiGatewayEvent, jsonBody, lambdaContext } from './events';

const nowEpoch = () => Math.floor(Date.now() / 1000);

/**
 * A session as a password sign-in `ageSeconds` ago would have left it, of the user's credential
 * version as stored now (behaviour RESET-12); the cookie to send.
 */
export async function signedIn(who: TestUser, ageSeconds = 0): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const authTime = nowEpoch() - ageSeconds;
  const credentialVersion = (await getUsers().current(who.user.id))?.credentialVersion ?? 0;
  await getSessions().createSession(
    id,
    { userId: who.user.id, authTime, amr: ['pwd'], credentialVersion, expiresAtEpoch: authTime + 3600 },
    new Date().toISOString(),
  );
  return `__Host-session=${id}`;
}

export const withCookie = (cookie?: string) => browserHeaders(cookie ? { Cookie: cookie } : {});

export const passkeysPage = (cookie?: string) =>
  pageHandler(apiGatewayEvent({ path: '/api/users/passkey', headers: withCookie(cookie) }), lambdaContext);

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export interface CreationOptions {
  challenge: string;
  rp: { id: string };
  user: { id: string };
  excludeCredentials: { id: string }[];
  authenticatorSelection: { residentKey: string; userVerification: string };
  attestation: string;
}

export function creationOptionsOf(page: APIGatewayProxyResult): CreationOptions {
  const match = /id="passkey-add" data-options="([^"]*)"/.exec(page.body);
  if (!match) throw new Error('no passkey-add button');
  return JSON.parse(unescapeHtml(match[1]!)) as CreationOptions;
}

/** The challenge of "Add a passkey" (a new registration ceremony per view of the page). */
export async function registrationChallenge(cookie: string): Promise<string> {
  const page = await passkeysPage(cookie);
  if (page.statusCode !== 200) throw new Error(`no passkeys page: ${page.statusCode}`);
  return creationOptionsOf(page).challenge;
}

export const postForm = (handler: typeof signInHandler, path: string, fields: Record<string, string>, headers = browserHeaders()) =>
  handler(apiGatewayEvent({ method: 'POST', path, headers, body: form(fields) }), lambdaContext);

export const postRegistration = (
  cookie: string,
  credential: unknown,
  extra: Record<string, string> = {},
  headers: Record<string, string> = {},
) =>
  postForm(
    registerHandler,
    '/api/users/passkey/verify',
    { credential: JSON.stringify(credential), ...extra },
    { ...withCookie(cookie), ...headers },
  );

/** The challenge of a sign-in ceremony (POST /api/auth/passkey/options). */
export async function signInChallenge(): Promise<string> {
  const result = await optionsHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/api/auth/passkey/options',
      headers: { Accept: 'application/json', 'Sec-Fetch-Site': 'same-origin' },
    }),
    lambdaContext,
  );
  if (result.statusCode !== 200) throw new Error(`no sign-in options: ${result.statusCode}`);
  return String(jsonBody(result).challenge);
}

export const postSignIn = (credential: unknown, extra: Record<string, string> = {}, headers = browserHeaders()) =>
  postForm(signInHandler, '/api/auth/passkey/verify', { credential: JSON.stringify(credential), ...extra }, headers);
