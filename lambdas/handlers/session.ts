/** GET /api/auth/session: who is signed in, as JSON; 401 when no live session (or its user is gone). */
import { InvalidTokenError } from '../core/errors';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { currentSession } from '../http/session';
import { getSessions, getUsers } from '../wiring/repositories';

export const handler = httpHandler(async (event, container) => {
  const current = await currentSession(event, container, getSessions());
  const user = current ? await getUsers().get(current.session.userId) : undefined;
  if (!current || !user)
    throw new InvalidTokenError('Not signed in.', current ? `user ${current.session.userId} no longer exists` : 'no session');
  return jsonResponse(200, {
    user: { id: user.id, email: user.email, name: user.name },
    auth_time: current.session.authTime,
    expires_at: current.session.expiresAtEpoch,
  });
});
