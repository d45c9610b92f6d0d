/**
 * A password reset as a browser goes through it (behaviour RESET-4, RESET-5, RESET-8, RESET-9):
 * the mailed link, its cookie, the new password, and the completion's "Remove all passkeys"
 * with the recovery proof the completion set.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { handler as forgotHandler } from '../../lambdas/handlers/forgot-password';
import { handler as removeAllHandler } from '../../lambdas/handlers/reset-passkeys-remove';
import { handler as resetPageHandler } from '../../lambdas/handlers/reset-password-page';
import { handler as resetHandler } from '../../lambdas/handlers/reset-password';
import { settleBackgroundJobs } from '../../lambdas/wiring/background';
import { latestResetToken } from './account';
import type { TestUser } from './fixtures';
import { browserHeaders, form } from './authorization';
import { apiGatewayEvent, headerOf, lambdaContext } from './events';

/** The token of a reset link mailed to the user (POST /forgot-password, then the background work). */
export async function mailedLink(outbox: string, who: TestUser): Promise<string> {
  const result = await forgotHandler(
    apiGatewayEvent({ method: 'POST', path: '/forgot-password', headers: browserHeaders(), body: form({ email: who.user.email! }) }),
    lambdaContext,
  );
  if (result.statusCode !== 200) throw new Error(`forgot-password answered ${result.statusCode}`);
  await settleBackgroundJobs();
  return latestResetToken(outbox, who.user.email!);
}

export const setCookies = (result: APIGatewayProxyResult): string[] => {
  const many = Object.entries(result.multiValueHeaders ?? {}).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1];
  const one = headerOf(result, 'set-cookie');
  return [...(many ?? []).map(String), ...(one ? [one] : [])];
};

/** Opens the link and sets the password as a browser does (the token in the link's cookie); the recovery proof's cookie. */
export async function completeReset(
  token: string,
  password = 'the new password 1',
): Promise<{ page: APIGatewayProxyResult; recovery: string }> {
  const opened = await resetPageHandler(
    apiGatewayEvent({ path: '/reset-password', query: { token }, headers: { Accept: 'text/html' } }),
    lambdaContext,
  );
  const linkCookie = headerOf(opened, 'set-cookie')!.split(';')[0]!;
  const page = await resetHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/reset-password',
      headers: browserHeaders({ Cookie: linkCookie }),
      body: form({ password, password_confirmation: password }),
    }),
    lambdaContext,
  );
  if (page.statusCode !== 200) throw new Error(`reset answered ${page.statusCode}`);
  const recovery = setCookies(page).find((c) => c.startsWith('__Secure-recovery='));
  return { page, recovery: recovery?.split(';')[0] ?? '' };
}

/** POST /reset-password/passkeys/remove with the recovery cookie (RESET-9). */
export const removeAll = (cookie: string | undefined, headers = browserHeaders()) =>
  removeAllHandler(
    apiGatewayEvent({
      method: 'POST',
      path: '/reset-password/passkeys/remove',
      headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
      body: form({ remove: 'all' }),
    }),
    lambdaContext,
  );
