/**
 * The dashboard as API Gateway reaches it: its rows (lambdas/routes.ts) are served by three
 * functions (lambdas/wiring/dashboard.ts), so a test calls the one the event's row names.
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { User } from '../../lambdas/core/model';
import { handler as actions } from '../../lambdas/handlers/dashboard';
import { handler as logo } from '../../lambdas/handlers/dashboard-logo';
import { handler as pages } from '../../lambdas/handlers/dashboard-pages';
import { csrfTokenOf } from '../../lambdas/presentation/dashboard/guard';
import { getSessions } from '../../lambdas/wiring/repositories';

export const handler = (event: APIGatewayProxyEvent, context: Context) => {
  if (event.resource === '/dashboard/logo') return logo(event, context);
  return event.httpMethod.toUpperCase() === 'GET' ? pages(event, context) : actions(event, context);
};

export interface DashboardSession {
  readonly user: User;
  /** The `Cookie` header value of the session. */
  readonly cookie: string;
  /** The form field every dashboard POST carries (behaviour DASH-3). */
  readonly csrf: string;
}

/** A sign-in session of `user` as the dashboard reads it, by default with a second factor (behaviour DASH-1). */
export async function dashboardSessionOf(user: User, amr: readonly string[] = ['pwd', 'otp', 'mfa']): Promise<DashboardSession> {
  const id = randomBytes(32).toString('base64url');
  const authTime = Math.floor(Date.now() / 1000);
  await getSessions().createSession(
    id,
    { userId: user.id, authTime, amr: [...amr], expiresAtEpoch: authTime + 3600 },
    new Date().toISOString(),
  );
  return { user, cookie: `__Host-session=${id}`, csrf: csrfTokenOf(id) };
}
