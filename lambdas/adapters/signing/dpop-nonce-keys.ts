/**
 * The DPoP nonce keys (behaviour TOKEN-10): one per signing key, derived from its private part with
 * HKDF-SHA256 under a label of their own, so every token container holds them already, they rotate
 * with the signing keys, and knowing a nonce key tells nothing of the signing key (RFC 5869).
 */
import { hkdfSync } from 'node:crypto';
import type { NonceKey } from '../../core/dpop-nonces';
import type { SigningKeySet } from './key-set';

export function nonceKeysOf(set: SigningKeySet): NonceKey[] {
  const ordered = [...set.keys].sort((a, b) => Number(b.kid === set.currentKid) - Number(a.kid === set.currentKid));
  return ordered.map((jwk) => ({
    id: jwk.kid!,
    secret: new Uint8Array(hkdfSync('sha256', Buffer.from(jwk.d!, 'base64url'), 'tollgate', `dpop-nonce ${jwk.kid}`, 32)),
  }));
}
