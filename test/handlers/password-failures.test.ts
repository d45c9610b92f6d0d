/**
 * Failed passwords slow down per account, never a permanent lockout, and an unknown account gets
 * the same answers (issue 12; behaviour PWFAIL-1, PWFAIL-2; OWASP ASVS 6.1.1, 6.3.1): a ceiling of
 * 10 failures per account per 15-minute window, taken atomically before the password is checked.
 */
import { handler as signInStepHandler } from '../../lambdas/handlers/authorize-sign-in';
import { handler as authorizeHandler } from '../../lambdas/handlers/authorize';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { failuresPerWindow } from '../../lambdas/core/account/password-attempts';
import { createAccountUser } from '../support/account';
import { authorizeQuery, browserHeaders, createClient, form, hiddenField, unique } from '../support/authorization';
import { apiGatewayEvent, headerOf, lambdaContext } from '../support/events';

const signIn = (email: string, password: string) =>
  signInHandler(
    apiGatewayEvent({ method: 'POST', path: '/api/auth/signin', headers: browserHeaders(), body: form({ email, password }) }),
    lambdaContext,
  );

// A window boundary between the failures and the check would reset the count: start well inside one.
beforeAll(async () => {
  const intoWindow = (Date.now() / 1000) % 900;
  if (intoWindow > 840) await new Promise((resolve) => setTimeout(resolve, (900 - intoWindow + 1) * 1000));
}, 70_000);

describe('the per-account ceiling (behaviour PWFAIL-1, PWFAIL-2)', () => {
  it(`after ${failuresPerWindow} wrong passwords even the right one gets 429 with Retry-After; an unknown address gets the same sequence and page`, async () => {
    const who = await createAccountUser();
    const ghost = `${unique('ghost')}@example.test`;
    for (let i = 0; i < failuresPerWindow; i++) {
      expect((await signIn(who.user.email!, 'wrong password')).statusCode).toBe(401);
      expect((await signIn(ghost, 'wrong password')).statusCode).toBe(401);
    }
    const known = await signIn(who.user.email!, who.password);
    const unknown = await signIn(ghost, 'any password');
    expect(known.statusCode).toBe(429);
    expect(unknown.statusCode).toBe(429);
    expect(unknown.body).toBe(known.body);
    expect(Number(headerOf(known, 'retry-after'))).toBeLessThanOrEqual(900);
    expect(headerOf(known, 'set-cookie')).toBeUndefined();
  });

  it('20 parallel wrong passwords: at most 10 are checked, the rest are 429', async () => {
    const who = await createAccountUser();
    const results = await Promise.all(Array.from({ length: 20 }, () => signIn(who.user.email!, 'wrong password')));
    expect(results.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(failuresPerWindow);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(20 - failuresPerWindow);
  });

  it('another account is not affected', async () => {
    const victim = await createAccountUser();
    const bystander = await createAccountUser();
    for (let i = 0; i < failuresPerWindow; i++) await signIn(victim.user.email!, 'wrong password');
    expect(headerOf(await signIn(bystander.user.email!, bystander.password), 'set-cookie')).toMatch(/^__Host-session=/);
  });

  it('the sign-in step of /api/authorize shares the count', async () => {
    const who = await createAccountUser();
    for (let i = 0; i < failuresPerWindow; i++) await signIn(who.user.email!, 'wrong password');
    const client = await createClient();
    const page = await authorizeHandler(
      apiGatewayEvent({ path: '/api/authorize', query: authorizeQuery(client), headers: { Accept: 'text/html' } }),
      lambdaContext,
    );
    const result = await signInStepHandler(
      apiGatewayEvent({
        method: 'POST',
        path: '/api/authorize',
        headers: browserHeaders(),
        body: form({ request_id: hiddenField(page.body, 'request_id'), email: who.user.email!, password: who.password }),
      }),
      lambdaContext,
    );
    expect(result.statusCode).toBe(429);
  });
});
