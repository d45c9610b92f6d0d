/**
 * The passkeys page and its guard (behaviour PASSKEY-1): only the session's user, signed in within
 * the last 10 minutes, sees, adds or removes passkeys (lambdas/core/account/passkeys.ts
 * mayManagePasskeys); anyone else is sent to sign in again and comes back here. A bearer token does
 * not count: adding a passkey is a browser ceremony, and a token says nothing about a recent sign-in.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { MfaPolicy } from '../config/settings';
import { accountPaths } from '../core/account/paths';
import { mayManagePasskeys, passkeysToManage, type PasskeyCeremonyDependencies } from '../core/account/passkeys';
import { newSecret } from '../core/ids';
import type { User } from '../core/model';
import { endpointPaths } from '../core/paths';
import type { Container } from '../http/container';
import type * as z from 'zod/mini';
import { parseBody } from '../http/body';
import { redirect } from '../http/redirect';
import { assertSameOrigin } from '../http/same-origin';
import { validate } from '../http/validate';
import { currentSession, type SessionReaders } from '../http/session';
import { htmlResponse } from './html';
import { passkeysPage } from './views/passkeys';

/** The session and its user, and the MFA policy in force (behaviour MFA-9). */
export interface PasskeySessionReaders extends SessionReaders {
  readonly mfaPolicy: () => Promise<MfaPolicy>;
}

/** The session's user when that session may manage passkeys; undefined sends the browser to sign in again. */
export async function recentlySignedInUser(
  event: APIGatewayProxyEvent,
  container: Container,
  readers: PasskeySessionReaders,
): Promise<User | undefined> {
  const current = await currentSession(event, container, readers);
  if (!current) return undefined;
  return (await mayManagePasskeys(current.session, current.user, container.clock, readers.mfaPolicy)) ? current.user : undefined;
}

/**
 * A post of the passkeys page (adding or removing one): same-origin only (behaviour SIGNIN-5), its
 * form validated, then `run` for a user who may manage passkeys; anyone else signs in again.
 */
export async function passkeyFormPost<S extends z.ZodMiniType>(
  event: APIGatewayProxyEvent,
  container: Container,
  readers: PasskeySessionReaders,
  schema: S,
  run: (form: z.output<S>, user: User) => Promise<APIGatewayProxyResult>,
): Promise<APIGatewayProxyResult> {
  assertSameOrigin(event, container.config.baseUrl);
  const form = validate(schema, parseBody(event, ['form']));
  const user = await recentlySignedInUser(event, container, readers);
  return user ? run(form, user) : signInAgain();
}

export const signInAgain = (): APIGatewayProxyResult =>
  redirect(`${endpointPaths.signIn}?return_to=${encodeURIComponent(accountPaths.passkeys)}`);

export const passkeyNotices = { added: 'The passkey was added.', removed: 'The passkey was removed.' } as const;

export async function passkeysPageResponse(
  container: Container,
  deps: PasskeyCeremonyDependencies,
  user: User,
  statusCode: number,
  message: { readonly error?: string; readonly notice?: string } = {},
): Promise<APIGatewayProxyResult> {
  const { passkeys, creationOptions } = await passkeysToManage(deps, user);
  const nonce = newSecret(container.random);
  return htmlResponse(statusCode, passkeysPage({ nonce, passkeys, creationOptions, ...message }), { scriptNonce: nonce });
}
