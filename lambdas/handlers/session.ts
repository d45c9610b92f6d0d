/**
 * GET /api/auth/session: who is signed in, as JSON; 401 when no live session (or its user is gone,
 * or their password changed since it started: behaviour RESET-12).
 */
import { InvalidTokenError } from '../core/errors';
import { httpHandler } from '../wiring/handler';
import { jsonResponse } from '../http/response';
import { currentSession } from '../http/session';
import { getSessionReaders } from '../wiring/repositories';

export const handler = httpHandler(async (event, container) => {
  const current = await currentSession(event, container, getSessionReaders());
  if (!current) throw new InvalidTokenError('Not signed in.', 'no session');
  const { user } = current;
  return jsonResponse(200, {
    user: { id: user.id, email: user.email, name: user.name },
    auth_time: current.session.authTime,
    expires_at: current.session.expiresAtEpoch,
  });
});
