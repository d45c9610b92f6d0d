/**
 * The signature half of a DPoP proof check (RFC 9449 4.3 items 6-7): jose verifies the proof with the
 * public key in its own header and computes that key's RFC 7638 thumbprint. The rules around it are
 * core's (lambdas/core/dpop.ts). Depends on `jose` alone, so the resource-server helper can use it.
 */
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import type { ProofSignature } from '../core/dpop';

export const dpopProofSignature: ProofSignature = {
  header(proof) {
    try {
      return decodeProtectedHeader(proof) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  },
  async verify(proof, algorithms) {
    try {
      // Claims are core's to judge (iat window, htm, htu); jose checks only the signature, `typ` and the algorithm.
      const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { algorithms: [...algorithms], typ: 'dpop+jwt' });
      const thumbprint = await calculateJwkThumbprint(protectedHeader.jwk as JWK, 'sha256');
      return { payload: payload as Record<string, unknown>, thumbprint };
    } catch {
      return undefined;
    }
  },
};
