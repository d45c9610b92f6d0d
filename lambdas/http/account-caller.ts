/**
 * Who calls the user's own account endpoints (/api/users/*, issue 12): the signed-in user
 * (the session cookie, with the same-origin check of a cookie-authenticated post), or a
 * user's own bearer token. A token must identify a user (`sub`) and must not have been
 * minted by an API key (spec 5's rule for self-service: a key cannot act for the account
 * beyond its scopes). A bearer header, when present, decides; the cookie is not consulted.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { AccessDeniedError, InvalidTokenError } from '../core/errors';
import type { User } from '../core/model';
import { getAccountUsers } from '../runtime/account';
import type { Runtime } from '../runtime/base';
import { header } from './body';
import { requireBearer } from './bearer';
import { assertSameOrigin } from './same-origin';
import { currentSession } from './session';

function unauthenticated(reason: string): InvalidTokenError {
  const error = new InvalidTokenError('Sign in, or present a bearer access token of the user.', reason);
  error.headers = { 'WWW-Authenticate': 'Bearer' };
  return error;
}

export async function requireAccountUser(event: APIGatewayProxyEvent, runtime: Runtime): Promise<User> {
  let userId: string;
  if (header(event, 'authorization') !== undefined) {
    const claims = await requireBearer(event);
    if (!claims.sub) throw new AccessDeniedError('This token does not act for a user.', `token of client ${claims.client_id} has no sub`);
    if (claims.api_key_id) throw new AccessDeniedError('A token minted by an API key cannot manage its account.', `api key ${claims.api_key_id}`);
    userId = claims.sub;
  } else {
    const current = await currentSession(event, runtime);
    if (!current) throw unauthenticated('no session and no bearer token');
    assertSameOrigin(event, runtime.config.baseUrl);
    userId = current.session.userId;
  }
  // Strongly consistent: the address may have changed a moment ago.
  const user = await getAccountUsers().currentUser(userId);
  if (!user) throw unauthenticated(`user ${userId} no longer exists`);
  return user;
}
