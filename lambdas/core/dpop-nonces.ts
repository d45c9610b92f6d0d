/**
 * Server nonces for DPoP proofs (RFC 9449 8, behaviour TOKEN-10) that any container verifies without a
 * round trip: a nonce is `<key id>.<time step>.<HMAC of the step>`, good during its step and the next
 * one. The keys come from secrets every token container already holds (adapters/signing/dpop-nonce-keys.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DpopNonces } from './dpop';
import type { Clock } from './ports';

/** One MAC key: `id` names it inside the nonce, so a container that rotated keys still checks older nonces. */
export interface NonceKey {
  readonly id: string;
  readonly secret: Uint8Array;
}

/** A nonce is issued for a 5-minute step and accepted through the next: 5 to 10 minutes of use. */
export const dpopNonceStepSeconds = 300;

/** `keys[0]` issues; every key verifies what it issued. */
export function timeStepNonces(keys: readonly NonceKey[], clock: Clock, stepSeconds = dpopNonceStepSeconds): DpopNonces {
  if (keys.length === 0) throw new Error('DPoP nonces need at least one key');
  const stepNow = () => Math.floor(clock.now() / 1000 / stepSeconds);
  const tag = (key: NonceKey, step: number) => createHmac('sha256', key.secret).update(`dpop-nonce.${step}`).digest('base64url');
  return {
    current() {
      const step = stepNow();
      return `${keys[0]!.id}.${step}.${tag(keys[0]!, step)}`;
    },
    accepts(nonce) {
      const parts = nonce.split('.');
      if (parts.length !== 3) return false;
      const [id, stepText, given] = parts as [string, string, string];
      const step = Number(stepText);
      const now = stepNow();
      if (!/^[0-9]{1,12}$/.test(stepText) || (step !== now && step !== now - 1)) return false;
      const key = keys.find((candidate) => candidate.id === id);
      if (!key) return false;
      const expected = Buffer.from(tag(key, step));
      const presented = Buffer.from(given);
      return expected.length === presented.length && timingSafeEqual(expected, presented);
    },
  };
}
