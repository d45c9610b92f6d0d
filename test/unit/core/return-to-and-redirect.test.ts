/** The small pure pieces of sign-in and authorization: return_to and redirect building. */
import { redirectWithParameters } from '../../../lambdas/core/authorization-response';
import { safeReturnTo } from '../../../lambdas/core/sign-in';

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
