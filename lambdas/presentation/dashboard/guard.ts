/**
 * Who may use the dashboard (behaviour DASH-1..DASH-3): the signed-in session of an
 * admin user whose sign-in included a second factor when the MFA policy asks admins for one
 * (ASVS 6.3.3); a session without it is asked for the mailed code (behaviour MFA-10).
 * Every POST is same-origin checked (lambdas/http/same-origin.ts) and carries a CSRF token
 * bound to the session: base64url(SHA-256("csrf|" + session id)). The session id is
 * a 256-bit secret in an HttpOnly cookie, so no other site can compute the token (OWASP CSRF
 * Cheat Sheet, synchronizer token; ASVS 3.5.1).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { AccessDeniedError } from '../../core/errors';
import type { MfaPolicy } from '../../config/settings';
import type { User } from '../../core/model';
import { endpointPaths } from '../../core/paths';
import type { Container } from '../../http/container';
import { redirect } from '../../http/redirect';
import { currentSession, lacksSecondFactor, type SessionStore } from '../../http/session';
import { stepUpResponse } from '../step-up';

export interface DashboardAdmin {
  readonly user: User;
  readonly csrf: string;
}

export function csrfTokenOf(sessionId: string): string {
  return createHash('sha256').update(`csrf|${sessionId}`).digest('base64url');
}

export function checkCsrf(presented: string | undefined, expected: string): void {
  const a = Buffer.from(presented ?? '');
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw new AccessDeniedError('This form has expired or did not come from the dashboard. Reload the page and try again.', 'csrf token');
  }
}

/** The admin of the request's session, or the answer to give instead (sign in, the code, or 403). */
export async function dashboardAdmin(
  event: APIGatewayProxyEvent,
  container: Container,
  deps: {
    readonly sessions: SessionStore;
    /** The user as stored now (strongly consistent: behaviour RESET-12). */
    readonly currentUser: (id: string) => Promise<User | undefined>;
    /** The MFA policy in force: the stored site setting, else MFA_POLICY (behaviour SITE-2). */
    readonly mfaPolicy: () => Promise<MfaPolicy>;
  },
  returnTo: string,
): Promise<DashboardAdmin | APIGatewayProxyResult> {
  const current = await currentSession(event, container, deps);
  // A POST is never replayed after sign-in or the code: back to the page, not the action.
  const comeBackTo = event.httpMethod === 'GET' ? returnTo : '/dashboard';
  if (!current) return redirect(`${endpointPaths.signIn}?return_to=${encodeURIComponent(comeBackTo)}`);
  const { user } = current;
  if (!user.admin) throw new AccessDeniedError('The dashboard is for administrators only.', `user ${user.id} is not an admin`);
  // Behaviour DASH-1, MFA-9: `off` lets a password alone in; otherwise the sign-in must have had a
  // second factor (ASVS 6.3.3), and a session without one is asked for the code (MFA-10).
  if (await lacksSecondFactor(current, deps.mfaPolicy)) {
    container.log.info('dashboard asks for a second factor', { userId: user.id });
    return stepUpResponse(container, user, { hidden: { return_to: comeBackTo }, statusCode: event.httpMethod === 'GET' ? 200 : 403 });
  }
  return { user, csrf: csrfTokenOf(current.id) };
}
