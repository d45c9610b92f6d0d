/** The small pure pieces of sign-in and authorization: escaping, return_to, redirect building, cookie security. */
import { redirectWithParameters } from '../../../lambdas/core/authorization-response';
import { safeReturnTo } from '../../../lambdas/core/sign-in';
import { secureCookies, sessionCookie } from '../../../lambdas/http/cookies';
import { escapeHtml, formTarget, html, Html } from '../../../lambdas/presentation/html';

describe('html escaping', () => {
  it('escapes the five HTML-significant characters in every interpolated value', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const name = '"><img src=x onerror=alert(1)>';
    expect(html`<input value="${name}">`.value).toBe('<input value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">');
  });

  it('inserts nested Html as is, arrays joined, and nothing for undefined or false', () => {
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>${undefined}${false}`.value).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>',
    );
    expect(html`${new Html('<b>')}`.value).toBe('<b>');
  });
});

describe('return_to after sign-in: same-origin relative paths only (no open redirect, RFC 9700 4.11)', () => {
  it.each(['/dashboard', '/api/authorize?client_id=a&b=c', '/a#frag'])('keeps %s', (value) => {
    expect(safeReturnTo(value)).toBe(value);
  });
  it.each(['https://evil.example/', '//evil.example', '/\\evil.example', '/\tevil', 'javascript:alert(1)', 'dashboard', '', undefined])(
    'drops %p',
    (value) => {
      expect(safeReturnTo(value)).toBeUndefined();
    },
  );
});

describe('authorization response URL (OAuth 2.1 4.1.2)', () => {
  it('appends to the registered query without re-encoding it', () => {
    expect(redirectWithParameters('https://c.example/cb?tenant=a%20b', { code: 'c', state: undefined, iss: 'https://as.example' })).toBe(
      'https://c.example/cb?tenant=a%20b&code=c&iss=https%3A%2F%2Fas.example',
    );
    expect(redirectWithParameters('http://127.0.0.1:8765/cb', { code: 'a+b' })).toBe('http://127.0.0.1:8765/cb?code=a%2Bb');
    expect(redirectWithParameters('com.example.app:/cb?', { code: 'c' })).toBe('com.example.app:/cb?code=c');
  });
});

describe('cookies and form-action sources', () => {
  it('are Secure except for an http issuer on a loopback host', () => {
    expect(secureCookies('https://auth.example.com')).toBe(true);
    expect(secureCookies('http://localhost:3000')).toBe(false);
    expect(secureCookies('http://127.0.0.1:3000')).toBe(false);
    expect(sessionCookie('http://localhost:3000', 'v', 60)).toBe('session=v; Max-Age=60; Path=/; HttpOnly; SameSite=Lax');
    expect(sessionCookie('https://auth.example.com', 'v', 60)).toBe('__Host-session=v; Max-Age=60; Path=/; HttpOnly; SameSite=Lax; Secure');
  });

  it('allow the redirect origin, or the scheme of a private-use redirect URI (RFC 8252 7.1)', () => {
    expect(formTarget('https://app.example/cb?x=1')).toBe('https://app.example');
    expect(formTarget('http://127.0.0.1:8765/cb')).toBe('http://127.0.0.1:8765');
    expect(formTarget('com.example.app:/cb')).toBe('com.example.app:');
  });
});
