/**
 * Calling the dashboard's handler as a signed-in admin's browser would (test/handlers/dashboard-*.test.ts):
 * a session with a second factor, its CSRF token, same-origin form posts, and following a 303.
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { User } from '../../lambdas/core/model';
import { csrfTokenOf } from '../../lambdas/presentation/dashboard/guard';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getSessions } from '../../lambdas/wiring/repositories';
import { handler } from './dashboard-handler';
import { apiGatewayEvent, lambdaContext } from './events';
import { createUser } from './fixtures';

export const dashboardOrigin = 'https://auth.example.test';

export interface DashboardSession {
  readonly user: User;
  readonly cookie: string;
  readonly csrf: string;
}

export async function dashboardSessionOf(user: User): Promise<DashboardSession> {
  const id = randomBytes(32).toString('base64url');
  const authTime = Math.floor(Date.now() / 1000);
  await getSessions().createSession(
    id,
    { userId: user.id, authTime, amr: ['pwd', 'otp', 'mfa'], expiresAtEpoch: authTime + 3600 },
    new Date().toISOString(),
  );
  return { user, cookie: `__Host-session=${id}`, csrf: csrfTokenOf(id) };
}

export const newAdminSession = async () => dashboardSessionOf(await createUser({ admin: true, test: false, name: 'Forms admin' }));

function call(method: 'GET' | 'POST', path: string, session: DashboardSession, body?: string, query?: Record<string, string>) {
  const sub = path.replace(/^\/dashboard\/?/, '');
  return handler(
    apiGatewayEvent({
      method,
      path,
      resource: sub ? '/dashboard/{proxy+}' : '/dashboard',
      headers: {
        Accept: 'text/html',
        Cookie: session.cookie,
        ...(body !== undefined
          ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: dashboardOrigin }
          : {}),
      },
      ...(sub ? { pathParameters: { proxy: sub } } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(query && Object.keys(query).length > 0 ? { query } : {}),
    }),
    lambdaContext,
  );
}

/** A page; `path` may carry a query. */
export function dashboardGet(session: DashboardSession, path: string) {
  const url = new URL(path, dashboardOrigin);
  return call('GET', url.pathname, session, undefined, Object.fromEntries(url.searchParams));
}

/** A form post with the session's CSRF token. */
export function dashboardPost(session: DashboardSession, path: string, fields: Record<string, string>) {
  return call('POST', path, session, new URLSearchParams({ csrf: session.csrf, ...fields }).toString());
}

export const headerOf = (response: APIGatewayProxyResult, name: string) =>
  Object.entries(response.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/** The browser's GET of a 303's Location. */
export function followRedirect(session: DashboardSession, response: APIGatewayProxyResult) {
  if (response.statusCode !== 303) throw new Error(`expected a 303, got ${response.statusCode}: ${response.body.slice(0, 500)}`);
  return dashboardGet(session, String(headerOf(response, 'Location')));
}

/** The audit entries of the last hour with this admin as actor, newest first. */
export async function auditEntriesBy(adminId: string) {
  const page = await getAuditLog().page({
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
    limit: 100,
  });
  return page.items.filter((entry) => entry.actor.kind === 'admin-user' && entry.actor.userId === adminId);
}
