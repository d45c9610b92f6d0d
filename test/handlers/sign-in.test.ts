/**
 * Sign-in at /api/auth/* (behaviour SIGNIN-1..SIGNIN-8): the server-rendered form, the generic error
 * for unknown emails and wrong passwords, the session cookie, sign-out and the session query.
 */
import { handler as sessionHandler } from '../../lambdas/handlers/session';
import { handler as signInPageHandler } from '../../lambdas/handlers/sign-in-page';
import { handler as signInHandler } from '../../lambdas/handlers/sign-in';
import { handler as signOutHandler } from '../../lambdas/handlers/sign-out';
import { getHasher } from '../../lambdas/wiring/repositories';
import { browserHeaders, cookieOf, form } from '../support/authorization';
import { createUserWithPassword, type TestUser } from '../support/fixtures';
import { apiGatewayEvent, headerOf, jsonBody, lambdaContext } from '../support/events';

const path = '/api/auth/signin';
let alice: TestUser;

beforeAll(async () => {
  alice = await createUserWithPassword({ environments: [] });
});

const signIn = (fields: Record<string, string>, headers: Record<string, string> = browserHeaders()) =>
  signInHandler(apiGatewayEvent({ method: 'POST', path, headers, body: form(fields) }), lambdaContext);

describe('GET /api/auth/signin', () => {
  it("renders a form that posts to /api/auth/signin without JavaScript; the CSP allows only the nonce'd passkey script (behaviour SIGNIN-1, PASSKEY-10)", async () => {
    const result = await signInPageHandler(apiGatewayEvent({ path }), lambdaContext);
    expect(result.statusCode).toBe(200);
    expect(headerOf(result, 'content-type')).toBe('text/html; charset=utf-8');
    expect(result.body).toContain('<form method="post" action="/api/auth/signin">');
    const csp = headerOf(result, 'content-security-policy')!;
    const nonce = /script-src 'nonce-([A-Za-z0-9_-]{43})'; connect-src 'self'$/.exec(csp)?.[1];
    expect(result.body.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headerOf(result, 'cache-control')).toBe('no-store');
  });

  it('carries a same-origin return_to and drops any other (no open redirect)', async () => {
    const page = async (returnTo: string) =>
      (await signInPageHandler(apiGatewayEvent({ path, query: { return_to: returnTo } }), lambdaContext)).body;
    expect(await page('/dashboard?tab=1')).toContain('name="return_to" value="/dashboard?tab=1"');
    for (const hostile of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      expect(await page(hostile)).not.toContain('name="return_to"');
    }
  });

  it('escapes what it echoes', async () => {
    const body = (await signInPageHandler(apiGatewayEvent({ path, query: { return_to: '/a"><script>x</script>' } }), lambdaContext)).body;
    expect(body).not.toContain('<script>');
  });
});

describe('POST /api/auth/signin', () => {
  it('signs in with email and password: a session cookie that is HttpOnly, SameSite=Lax, Path=/, Secure with the __Host- prefix on an https issuer', async () => {
    const result = await signIn({ email: alice.user.email!, password: alice.password });
    expect(result.statusCode).toBe(200);
    expect(result.body).toContain('You are signed in as');
    const setCookie = headerOf(result, 'set-cookie')!;
    expect(setCookie).toMatch(/^__Host-session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toContain('Secure');
    expect(setCookie).not.toContain('Domain=');
  });

  it('accepts the email in any letter case', async () => {
    const result = await signIn({ email: alice.user.email!.toUpperCase(), password: alice.password });
    expect(headerOf(result, 'set-cookie')).toBeDefined();
  });

  it('redirects (303) to a same-origin return_to, and ignores an absolute one', async () => {
    const ok = await signIn({ email: alice.user.email!, password: alice.password, return_to: '/api/authorize?x=1' });
    expect(ok.statusCode).toBe(303);
    expect(headerOf(ok, 'location')).toBe('/api/authorize?x=1');
    const hostile = await signIn({ email: alice.user.email!, password: alice.password, return_to: 'https://evil.example/' });
    expect(hostile.statusCode).toBe(200);
    expect(headerOf(hostile, 'location')).toBeUndefined();
  });

  it.each(['/.//evil.example/', '/..//evil.example/', '/%2e//evil.example/', '/a/..//evil.example/', '/./\t/evil.example/'])(
    'behaviour SIGNIN-6: a return_to whose normalised path starts with // (%s) is dropped, never an off-site Location',
    async (hostile) => {
      const result = await signIn({ email: alice.user.email!, password: alice.password, return_to: hostile });
      expect(result.statusCode).toBe(200);
      expect(headerOf(result, 'location')).toBeUndefined();
      const page = (await signInPageHandler(apiGatewayEvent({ path, query: { return_to: hostile } }), lambdaContext)).body;
      expect(page).not.toContain('name="return_to"');
    },
  );

  it('a return_to that normalises to a same-origin path is kept in its normalised form', async () => {
    const result = await signIn({ email: alice.user.email!, password: alice.password, return_to: '/a/../api/authorize?x=1' });
    expect(headerOf(result, 'location')).toBe('/api/authorize?x=1');
  });

  it('answers an unknown email and a wrong password identically, spending one Argon2id verification on each', async () => {
    const hasher = getHasher();
    const dummy = jest.spyOn(hasher, 'verifyDummy');
    const verify = jest.spyOn(hasher, 'verify');
    const email = `nobody-${alice.user.email!}`;
    const unknown = await signIn({ email, password: 'whatever-password' });
    expect([dummy.mock.calls.length, verify.mock.calls.length]).toEqual([1, 0]);
    const wrong = await signIn({ email: alice.user.email!, password: 'wrong-password' });
    expect([dummy.mock.calls.length, verify.mock.calls.length]).toEqual([1, 1]);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    // The same page apart from the echoed email and the per-response script nonce; no cookie either way.
    const page = (body: string, address: string) => body.replace(address, 'EMAIL').replace(/nonce="[^"]+"/g, 'nonce="N"');
    expect(page(unknown.body, email)).toBe(page(wrong.body, alice.user.email!));
    expect(unknown.body).toContain('The email or password is incorrect.');
    expect(headerOf(unknown, 'set-cookie')).toBeUndefined();
    expect(headerOf(wrong, 'set-cookie')).toBeUndefined();
    dummy.mockRestore();
    verify.mockRestore();
  });

  it('answers API callers (no text/html) with the same generic error as JSON', async () => {
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const unknown = await signIn({ email: 'nobody@example.test', password: 'x' }, headers);
    const wrong = await signIn({ email: alice.user.email!, password: 'x' }, headers);
    expect(unknown.statusCode).toBe(401);
    expect(jsonBody(unknown)).toEqual(jsonBody(wrong));
    expect(jsonBody(unknown)).toEqual({ error: 'access_denied', error_description: 'The email or password is incorrect.' });
  });

  it('accepts a same-origin post whose Origin is null (a no-referrer page), as Sec-Fetch-Site decides', async () => {
    const result = await signIn({ email: alice.user.email!, password: alice.password }, browserHeaders({ Origin: 'null' }));
    expect(result.statusCode).toBe(200);
    expect(headerOf(result, 'set-cookie')).toMatch(/^__Host-session=/);
  });

  it('refuses a cross-site form post (login CSRF, RFC 6749 10.12) without signing in', async () => {
    const crossSite: Record<string, string | undefined>[] = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://sibling.auth.example.test' },
      { 'Sec-Fetch-Site': undefined, Origin: 'https://evil.example' }, // a browser without Fetch Metadata
      { 'Sec-Fetch-Site': undefined, Origin: 'null' }, // a sandboxed cross-site frame
    ];
    for (const extra of crossSite) {
      const result = await signIn({ email: alice.user.email!, password: alice.password }, browserHeaders(extra));
      expect(result.statusCode).toBe(403);
      expect(headerOf(result, 'set-cookie')).toBeUndefined();
    }
  });

  it('shows a form error page for a missing password, never a 500', async () => {
    const result = await signIn({ email: alice.user.email! });
    expect(result.statusCode).toBe(400);
    expect(headerOf(result, 'content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('GET /api/auth/session and POST /api/auth/signout', () => {
  it('reports the signed-in user, and 401 invalid_token once signed out; sign-out clears the cookie', async () => {
    const cookie = cookieOf(await signIn({ email: alice.user.email!, password: alice.password }));
    const session = await sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers: { Cookie: cookie } }), lambdaContext);
    expect(session.statusCode).toBe(200);
    expect(jsonBody(session).user).toEqual({ id: alice.user.id, email: alice.user.email, name: alice.user.name });

    const out = await signOutHandler(
      apiGatewayEvent({ method: 'POST', path: '/api/auth/signout', headers: { ...browserHeaders(), Cookie: cookie } }),
      lambdaContext,
    );
    expect(out.statusCode).toBe(200);
    expect(headerOf(out, 'set-cookie')).toMatch(/^__Host-session=; Max-Age=0; /);

    const after = await sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers: { Cookie: cookie } }), lambdaContext);
    expect(after.statusCode).toBe(401);
    expect(jsonBody(after).error).toBe('invalid_token');
  });

  it('answers 401 without a cookie, and for a cookie that is not a session id', async () => {
    const cookies: Record<string, string>[] = [{}, { Cookie: '__Host-session=forged' }, { Cookie: `__Host-session=${'a'.repeat(43)}` }];
    for (const headers of cookies) {
      const result = await sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers }), lambdaContext);
      expect(result.statusCode).toBe(401);
    }
  });

  it('starts a new session id on every sign-in and deletes the one the browser had (session fixation)', async () => {
    const first = cookieOf(await signIn({ email: alice.user.email!, password: alice.password }));
    const second = cookieOf(await signIn({ email: alice.user.email!, password: alice.password }, browserHeaders({ Cookie: first })));
    expect(second).not.toBe(first);
    const old = await sessionHandler(apiGatewayEvent({ path: '/api/auth/session', headers: { Cookie: first } }), lambdaContext);
    expect(old.statusCode).toBe(401);
  });
});
