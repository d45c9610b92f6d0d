/**
 * The passkeys page and its guard (behaviour PASSKEY-1, issue 13): only the session's user,
 * signed in within the last 10 minutes, sees, adds or removes passkeys; anyone else is sent to
 * sign in again and comes back here. A bearer token does not count: adding a passkey is
 * a browser ceremony, and a token says nothing about a recent sign-in.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { MfaPolicy } from '../config/settings';
import { accountPaths } from '../core/account/paths';
import { isRecentlyAuthenticated, registrationOptions, type PasskeyDependencies } from '../core/account/passkeys';
import { newSecret } from '../core/ids';
import type { User } from '../core/model';
import { endpointPaths } from '../core/paths';
import type { Container } from '../core/ports';
import { htmlResponse } from './html';
import { redirect } from '../http/redirect';
import { currentSession, lacksSecondFactor, type SessionReaders } from '../http/session';
import { passkeysPage } from './views/passkeys';

/** The session and its user, and the MFA policy in force (behaviour MFA-9). */
export interface PasskeySessionReaders extends SessionReaders {
  readonly mfaPolicy: () => Promise<MfaPolicy>;
}

/**
 * The session's user, when they signed in within the last 10 minutes (behaviour PASSKEY-1) with
 * every factor the MFA policy now asks of them: a sign-in without it must not add the passkey that
 * would give it one (behaviour MFA-9). Undefined sends the browser to sign in again.
 */
export async function recentlySignedInUser(
  event: APIGatewayProxyEvent,
  container: Container,
  readers: PasskeySessionReaders,
): Promise<User | undefined> {
  const current = await currentSession(event, container, readers);
  if (!current || !isRecentlyAuthenticated(current.session.authTime, container.clock)) return undefined;
  if (await lacksSecondFactor(current, readers.mfaPolicy)) return undefined;
  return current.user;
}

export const signInAgain = (): APIGatewayProxyResult =>
  redirect(`${endpointPaths.signIn}?return_to=${encodeURIComponent(accountPaths.passkeys)}`);

export const passkeyNotices = { added: 'The passkey was added.', removed: 'The passkey was removed.' } as const;

export async function passkeysPageResponse(
  container: Container,
  deps: PasskeyDependencies,
  user: User,
  statusCode: number,
  message: { readonly error?: string; readonly notice?: string } = {},
): Promise<APIGatewayProxyResult> {
  const passkeys = await deps.passkeys.listOf(user.id);
  const creationOptions = await registrationOptions(deps, user, passkeys);
  const nonce = newSecret(container.random);
  return htmlResponse(statusCode, passkeysPage({ nonce, passkeys, creationOptions, ...message }), { scriptNonce: nonce });
}
