/**
 * Behaviour KEY-1, LIMIT-3 and DESIGN "Traps": the key is `tgk_<16 hex key id>_<43 base64url secret>`,
 * parsed with one strict pattern (secrets contain `_`, so no split on `_`).
 */
import { cryptoRandom } from '../../../lambdas/adapters/system';
import { apiKeyPrefix, newApiKey, parseApiKey } from '../../../lambdas/core/api-keys/format';
import { keyStatus } from '../../../lambdas/core/api-keys/status';

const fixed = (fill: number) => ({ bytes: (n: number) => new Uint8Array(n).fill(fill) });

describe('behaviour KEY-1: the key format', () => {
  it('is the prefix, 8 random bytes in hex, and 32 random bytes in base64url', () => {
    const { key, keyId, secret } = newApiKey(cryptoRandom);
    expect(apiKeyPrefix).toBe('tgk');
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(key).toBe(`tgk_${keyId}_${secret}`);
  });

  it('round-trips a secret full of underscores (0xff bytes encode as "_")', () => {
    const { key, keyId, secret } = newApiKey(fixed(0xff));
    expect(secret).toMatch(/^_{42}8$/);
    expect(parseApiKey(key)).toEqual({ keyId, secret });
  });

  it.each([
    ['empty', ''],
    ['another prefix', `tgc_${'0'.repeat(16)}_${'A'.repeat(43)}`],
    ['a short key id', `tgk_${'0'.repeat(15)}_${'A'.repeat(43)}`],
    ['upper-case hex', `tgk_${'A'.repeat(16)}_${'A'.repeat(43)}`],
    ['a long secret', `tgk_${'0'.repeat(16)}_${'A'.repeat(44)}`],
    ['base64 padding', `tgk_${'0'.repeat(16)}_${'A'.repeat(42)}=`],
    ['standard base64 characters', `tgk_${'0'.repeat(16)}_${'A'.repeat(42)}+`],
    ['surrounding space', ` tgk_${'0'.repeat(16)}_${'A'.repeat(43)}`],
    ['a trailing newline', `tgk_${'0'.repeat(16)}_${'A'.repeat(43)}\n`],
  ])('refuses %s', (_what, value) => {
    expect(parseApiKey(value)).toBeUndefined();
  });
});

describe('behaviour KEY-5: status', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it.each([
    [{}, 'active'],
    [{ expiresAt: '2030-01-01T00:00:01.000Z' }, 'active'],
    [{ expiresAt: '2030-01-01T00:00:00.000Z' }, 'expired'],
    [{ revokedAt: '2029-01-01T00:00:00.000Z', expiresAt: '2031-01-01T00:00:00.000Z' }, 'revoked'],
    [{ revokedAt: '2029-01-01T00:00:00.000Z', expiresAt: '2029-06-01T00:00:00.000Z' }, 'revoked'],
  ])('%j is %s', (key, status) => {
    expect(keyStatus(key, now)).toBe(status);
  });
});
