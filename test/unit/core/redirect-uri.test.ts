/**
 * Redirect URI matching at the authorization endpoint (behaviour AUTHZ-13): exact strings, but a
 * loopback IP literal over http matches on any port (RFC 8252 section 7.3); `localhost` and
 * https stay exact (RFC 8252 section 8.3).
 */
import { redirectUriMatches } from '../../../lambdas/core/redirect-uri';

describe('redirect URI matching (behaviour AUTHZ-13, RFC 8252 7.3)', () => {
  it.each([
    ['http://127.0.0.1/callback', 'http://127.0.0.1:51234/callback'],
    ['http://127.0.0.1:1234/callback', 'http://127.0.0.1:51234/callback'],
    ['http://127.0.0.1:1234/callback', 'http://127.0.0.1/callback'],
    ['http://127.0.0.1:1234/callback?app=a%20b', 'http://127.0.0.1:8/callback?app=a%20b'],
    ['http://[::1]/callback', 'http://[::1]:65535/callback'],
    ['http://[::1]:4000/', 'http://[::1]:4001/'],
    ['http://127.0.0.1:4000', 'http://127.0.0.1:4001'],
  ])('registered %s matches %s: any port on a loopback IP literal', (registered, requested) => {
    expect(redirectUriMatches(registered, requested)).toBe(true);
  });

  it.each([
    ['a different path', 'http://127.0.0.1/callback', 'http://127.0.0.1:5000/other'],
    ['a longer path', 'http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback/'],
    ['a path that only normalises to the same', 'http://127.0.0.1/callback', 'http://127.0.0.1:5000/x/../callback'],
    ['an added query', 'http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback?x=1'],
    ['a different query', 'http://127.0.0.1/cb?a=1', 'http://127.0.0.1:5000/cb?a=2'],
    ['a fragment', 'http://127.0.0.1/callback', 'http://127.0.0.1:5000/callback#x'],
    ['the other loopback family', 'http://127.0.0.1/callback', 'http://[::1]:5000/callback'],
    ['another loopback address', 'http://127.0.0.1/callback', 'http://127.0.0.2:5000/callback'],
    ['another host', 'http://127.0.0.1/callback', 'http://evil.example:5000/callback'],
    ['user information', 'http://127.0.0.1/callback', 'http://x@127.0.0.1:5000/callback'],
    ['a host that starts like a loopback literal', 'http://127.0.0.1/callback', 'http://127.0.0.1.evil.example:5000/callback'],
    ['port 0', 'http://127.0.0.1/callback', 'http://127.0.0.1:0/callback'],
    ['a port past 65535', 'http://127.0.0.1/callback', 'http://127.0.0.1:65536/callback'],
    ['a port with a leading zero', 'http://127.0.0.1/callback', 'http://127.0.0.1:080/callback'],
    ['an empty port', 'http://127.0.0.1/callback', 'http://127.0.0.1:/callback'],
    ['https instead of http', 'http://127.0.0.1/callback', 'https://127.0.0.1:5000/callback'],
    ['localhost (RFC 8252 8.3: exact only)', 'http://localhost:3000/callback', 'http://localhost:3001/callback'],
    ['localhost for a loopback literal', 'http://127.0.0.1/callback', 'http://localhost:3001/callback'],
    ['https on loopback (exact only)', 'https://127.0.0.1:3000/callback', 'https://127.0.0.1:3001/callback'],
    ['an https host', 'https://app.example.test/callback', 'https://app.example.test:8443/callback'],
  ])('refuses %s', (_case, registered, requested) => {
    expect(redirectUriMatches(registered, requested)).toBe(false);
  });

  it('matches every registered URI as the exact string it is', () => {
    for (const uri of ['https://app.example.test/cb', 'http://localhost:3000/cb', 'https://127.0.0.1:3000/cb', 'com.example.app:/cb']) {
      expect(redirectUriMatches(uri, uri)).toBe(true);
    }
  });
});
