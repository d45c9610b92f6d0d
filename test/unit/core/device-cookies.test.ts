/**
 * The device cookie's seal (behaviour PWFAIL-3, PWFAIL-6; OWASP "Slow Down Online Guessing Attacks
 * with Device Cookies": `LOGIN,NONCE,SIGNATURE` with an HMAC under a server-side key): what opens,
 * what does not, and key rotation (the current key seals, every listed key opens), and the key
 * file's and secret's format.
 */
import { randomBytes } from 'node:crypto';
import { generateDeviceKeys, parseDeviceKeys } from '../../../lambdas/adapters/device-cookie-keys';
import { deviceKeySet, openDeviceCookie, sealDeviceCookie, type DeviceClaim } from '../../../lambdas/core/account/device-cookies';

const secret = () => randomBytes(32).toString('base64url');
const now = 2_000_000_000;
const claim: DeviceClaim = { userId: 'usr_0123456789abcdef', nonce: randomBytes(32).toString('base64url'), expiresAtEpoch: now + 60 };

describe('sealing and opening (behaviour PWFAIL-3)', () => {
  const keys = deviceKeySet(secret())!;
  const sealed = sealDeviceCookie(keys, claim);

  it('a sealed claim opens to itself until its expiry, and not at it', () => {
    expect(openDeviceCookie(keys, sealed, now)).toEqual(claim);
    expect(openDeviceCookie(keys, sealed, now + 59)).toEqual(claim);
    expect(openDeviceCookie(keys, sealed, now + 60)).toBeUndefined();
  });

  it('a change to any part, or any other shape, does not open', () => {
    const parts = sealed.split('.');
    for (let i = 0; i < parts.length; i++) {
      const altered = [...parts];
      altered[i] = `${altered[i]!.slice(0, -1)}${altered[i]!.endsWith('A') ? 'B' : 'A'}`;
      expect([i, openDeviceCookie(keys, altered.join('.'), now)]).toEqual([i, undefined]);
    }
    for (const value of [undefined, '', 'v1', `${sealed}.x`, `v2${sealed.slice(2)}`, sealed.replace(/\./g, ',')]) {
      expect(openDeviceCookie(keys, value, now)).toBeUndefined();
    }
  });

  it('a user id of any characters survives the round trip; the cookie holds only cookie-safe characters', () => {
    const odd = { ...claim, userId: 'usr_ä.;= b' };
    const value = sealDeviceCookie(keys, odd);
    expect(value).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(openDeviceCookie(keys, value, now)).toEqual(odd);
  });
});

describe('keys and rotation (behaviour PWFAIL-6)', () => {
  it('a cookie sealed by another key does not open, even naming this key id', () => {
    const ours = deviceKeySet(secret())!;
    const theirs = deviceKeySet(secret())!;
    const forged = sealDeviceCookie(theirs, claim);
    expect(openDeviceCookie(ours, forged, now)).toBeUndefined();
    const [version, , ...rest] = forged.split('.');
    expect(openDeviceCookie(ours, [version, ours.current.kid, ...rest].join('.'), now)).toBeUndefined();
  });

  it('after a rotation the new key seals, and cookies of the previous one still open until it is dropped', () => {
    const [old, next] = [secret(), secret()];
    const before = deviceKeySet(old)!;
    const during = deviceKeySet(next, [old])!;
    const after = deviceKeySet(next)!;
    const oldCookie = sealDeviceCookie(before, claim);
    const newCookie = sealDeviceCookie(during, claim);
    expect(during.current.kid).toBe(after.current.kid);
    expect(newCookie.split('.')[1]).toBe(during.current.kid);
    expect(openDeviceCookie(during, oldCookie, now)).toEqual(claim);
    expect(openDeviceCookie(during, newCookie, now)).toEqual(claim);
    expect(openDeviceCookie(after, oldCookie, now)).toBeUndefined();
    expect(openDeviceCookie(after, newCookie, now)).toEqual(claim);
  });

  it('the file or secret holds {"current", "previous"?}; keys under 32 characters or anything else are refused', () => {
    const generated = generateDeviceKeys();
    expect(generated.current).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseDeviceKeys(JSON.stringify(generated))?.all).toHaveLength(1);
    // As CloudFormation generates it: 64 letters and digits under "current".
    expect(parseDeviceKeys(JSON.stringify({ current: 'a1'.repeat(32), previous: [generated.current] }))?.all).toHaveLength(2);
    for (const text of [
      undefined,
      '',
      'not json',
      '{}',
      JSON.stringify({ current: 'short' }),
      JSON.stringify({ current: generated.current, previous: ['short'] }),
      JSON.stringify({ current: generated.current, previous: generated.current }),
      JSON.stringify({ current: 42 }),
    ]) {
      expect([text, parseDeviceKeys(text)]).toEqual([text, undefined]);
    }
  });
});
