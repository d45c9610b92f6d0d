/**
 * Who calls the user's own account endpoints (/api/users/*; behaviour VERIFY-1): the signed-in user
 * (the session cookie, with the same-origin check of a cookie-authenticated post), or a
 * user's own bearer token. A token must identify a user (`sub`) and must not have been
 * minted by an API key (as condition 3 of behaviour KEYM-2: a key cannot act for the account
 * beyond its scopes). A bearer header, when present, decides; the cookie is not consulted. Either
 * way the user is held to the password the sign-in was made with (behaviour RESET-12, BEARER-1).
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { AccessDeniedError, InvalidTokenError } from '../core/errors';
import type { User } from '../core/model';
import type { Container } from './container';
import { header } from './body';
import { requireVerifiedBearer, type BearerDependencies } from './bearer';
import { assertSameOrigin } from './same-origin';
import { currentSession, type SessionReaders } from './session';

const unauthenticated = (reason: string) =>
  new InvalidTokenError('Sign in, or present a bearer access token of the user.', reason, { headers: { 'WWW-Authenticate': 'Bearer' } });

/** What finding the caller reads: the bearer check, the sessions, the user as stored now. */
export interface AccountCallerDependencies extends SessionReaders {
  readonly bearer: BearerDependencies;
}

export async function requireAccountUser(
  event: APIGatewayProxyEvent,
  container: Container,
  deps: AccountCallerDependencies,
): Promise<User> {
  if (header(event, 'authorization') === undefined) {
    // Reads the user strongly consistently and drops a session of an older password (behaviour RESET-12).
    const current = await currentSession(event, container, deps);
    if (!current) throw unauthenticated('no session and no bearer token');
    assertSameOrigin(event, container.config.baseUrl);
    return current.user;
  }
  // The bearer check refuses a token whose sign-in's password version is no longer the user's
  // (behaviour BEARER-1, RESET-12), as the cookie path drops such a session.
  const verified = await requireVerifiedBearer(event, deps.bearer);
  const { claims } = verified;
  if (!claims.sub) throw new AccessDeniedError('This token does not act for a user.', `token of client ${claims.client_id} has no sub`);
  if (claims.api_key_id)
    throw new AccessDeniedError('A token minted by an API key cannot manage its account.', `api key ${claims.api_key_id}`);
  // The bearer check's read, strongly consistent: the address may have changed a moment ago.
  const user = await verified.user();
  if (!user) throw unauthenticated(`user ${claims.sub} no longer exists`);
  return user;
}
