/** Session cookies: Secure, and the __Host- prefix, except for an http issuer on a loopback host (local runs). */
import { secureCookies, sessionCookie } from '../../../lambdas/http/cookies';

describe('cookies', () => {
  it('are Secure except for an http issuer on a loopback host', () => {
    expect(secureCookies('https://auth.example.com')).toBe(true);
    expect(secureCookies('http://localhost:3000')).toBe(false);
    expect(secureCookies('http://127.0.0.1:3000')).toBe(false);
    expect(sessionCookie('http://localhost:3000', 'v', 60)).toBe('session=v; Max-Age=60; Path=/; HttpOnly; SameSite=Lax');
    expect(sessionCookie('https://auth.example.com', 'v', 60)).toBe('__Host-session=v; Max-Age=60; Path=/; HttpOnly; SameSite=Lax; Secure');
  });
});
