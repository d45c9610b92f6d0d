/**
 * Server nonces for DPoP (behaviour TOKEN-10, RFC 9449 8): checked by any container holding the keys,
 * good for their step and the next, tied to their key; and the keys derived from the signing key set.
 */
import { generateKeySet } from '../../../lambdas/adapters/signing/key-set';
import { nonceKeysOf } from '../../../lambdas/adapters/signing/dpop-nonce-keys';
import { dpopNonceStepSeconds, timeStepNonces, type NonceKey } from '../../../lambdas/core/dpop-nonces';

const keyA: NonceKey = { id: 'kid-a', secret: new Uint8Array(32).fill(1) };
const keyB: NonceKey = { id: 'kid-b', secret: new Uint8Array(32).fill(2) };
const stepMs = dpopNonceStepSeconds * 1000;
const at = (ms: number) => ({ now: () => ms });
const t0 = 1_800_000_000_000;

describe('time-step nonces (behaviour TOKEN-10)', () => {
  it('another container with the same keys accepts a nonce in its step and the next, not later', () => {
    const nonce = timeStepNonces([keyA], at(t0)).current();
    expect(timeStepNonces([keyA], at(t0)).accepts(nonce)).toBe(true);
    expect(timeStepNonces([keyA], at(t0 + stepMs)).accepts(nonce)).toBe(true);
    expect(timeStepNonces([keyA], at(t0 + 2 * stepMs)).accepts(nonce)).toBe(false);
    expect(timeStepNonces([keyA], at(t0 - stepMs)).accepts(nonce)).toBe(false);
  });

  it('a container whose current key rotated still accepts a nonce of the previous key; an unknown key or a changed tag is refused', () => {
    const nonce = timeStepNonces([keyA, keyB], at(t0)).current();
    expect(nonce.startsWith('kid-a.')).toBe(true);
    expect(timeStepNonces([keyB, keyA], at(t0)).accepts(nonce)).toBe(true);
    expect(timeStepNonces([keyB], at(t0)).accepts(nonce)).toBe(false);
    const [id, step, tag] = nonce.split('.');
    expect(timeStepNonces([keyA], at(t0)).accepts(`${id}.${step}.${tag!.slice(0, -1)}A`)).toBe(tag!.endsWith('A'));
    expect(timeStepNonces([keyA], at(t0)).accepts(`${id}.${Number(step) + 1}.${tag}`)).toBe(false);
    expect(timeStepNonces([keyA], at(t0)).accepts('garbage')).toBe(false);
  });
});

describe('nonce keys of the signing key set (behaviour TOKEN-10)', () => {
  it('one per signing key, the current one first, stable for a key and different between keys', async () => {
    const set = await generateKeySet('ES256');
    const other = await generateKeySet('ES256');
    const both = { currentKid: other.currentKid, keys: [...set.keys, ...other.keys] };
    const keys = nonceKeysOf(both);
    expect(keys.map((k) => k.id)).toEqual([other.currentKid, set.currentKid]);
    expect(nonceKeysOf(set)[0]!.secret).toEqual(keys[1]!.secret);
    expect(Buffer.from(keys[0]!.secret).equals(Buffer.from(keys[1]!.secret))).toBe(false);
  });
});
