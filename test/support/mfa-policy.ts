/**
 * Helpers for the tests of a changing MFA policy (behaviour MFA-9, MFA-10): set the
 * site's policy through the admin API, and open the authorization endpoint and dashboard pages
 * with a session cookie, as a browser would. Use with test/support/own-tables.ts: the policy is
 * one item per deployment.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { MfaPolicy } from '../../lambdas/config/settings';
import { handler as updateSettings } from '../../lambdas/handlers/admin/settings-update';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as dashboardHandler } from './dashboard-handler';
import { callAdmin } from './admin-calls';
import { apiGatewayEvent, headerOf, lambdaContext } from './events';

export async function setMfaPolicy(adminToken: string, policy: MfaPolicy): Promise<void> {
  const result = await callAdmin(updateSettings, {
    token: adminToken,
    method: 'PATCH',
    path: '/api/admin/settings',
    body: { mfa_policy: policy },
  });
  expect(result.statusCode).toBe(200);
}

/** GET /api/authorize as a browser navigation, with the session cookie when given. */
export const authorizeAs = (query: Record<string, string>, cookie?: string): Promise<APIGatewayProxyResult> =>
  authorizeHandler(
    apiGatewayEvent({ path: '/api/authorize', query, headers: { Accept: 'text/html', ...(cookie ? { Cookie: cookie } : {}) } }),
    lambdaContext,
  );

/** GET of a dashboard page (`/dashboard` or below) with the session cookie. */
export function dashboardPageAs(path: string, cookie: string): Promise<APIGatewayProxyResult> {
  const sub = path.replace(/^\/dashboard\/?/, '');
  return dashboardHandler(
    apiGatewayEvent({
      path,
      resource: sub ? '/dashboard/{proxy+}' : '/dashboard',
      headers: { Accept: 'text/html', Cookie: cookie },
      ...(sub ? { pathParameters: { proxy: sub } } : {}),
    }),
    lambdaContext,
  );
}

/** The page asking for the mailed code of a step up (behaviour MFA-10): a form posting to /api/auth/step-up, no code issued. */
export function expectStepUpPage(result: APIGatewayProxyResult): void {
  expect(result.statusCode).toBe(200);
  expect(headerOf(result, 'location')).toBeUndefined();
  expect(result.body).toContain('action="/api/auth/step-up"');
  expect(result.body).toMatch(/code/i);
}
