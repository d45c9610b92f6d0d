/**
 * DPoP proofs as a client makes them (RFC 9449 4.2), with jose: a key pair, its RFC 7638 thumbprint,
 * and proofs for a request, each claim overridable so a test can break one rule at a time.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { createHash, randomUUID } from 'node:crypto';

export interface ProofOptions {
  readonly accessToken?: string;
  /** Claims to set (or, as undefined, to drop). */
  readonly claims?: Record<string, unknown>;
  /** Header members to set or replace (typ, alg, jwk). */
  readonly header?: Record<string, unknown>;
  /** Sign with another algorithm's key (e.g. an HS256 secret); default this key's. */
  readonly signWith?: { key: CryptoKey | Uint8Array; alg: string };
}

export interface DpopKey {
  readonly jkt: string;
  readonly publicJwk: JWK;
  readonly privateJwk: JWK;
  proof(htm: string, htu: string, options?: ProofOptions): Promise<string>;
}

export const ath = (accessToken: string) => createHash('sha256').update(accessToken, 'ascii').digest('base64url');

export async function dpopKey(alg: 'ES256' | 'RS256' | 'PS256' | 'EdDSA' = 'ES256'): Promise<DpopKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const privateJwk = await exportJWK(privateKey);
  const jkt = await calculateJwkThumbprint(publicJwk, 'sha256');
  return {
    jkt,
    publicJwk,
    privateJwk,
    async proof(htm, htu, options = {}) {
      const claims: Record<string, unknown> = {
        htm,
        htu,
        jti: randomUUID(),
        iat: Math.floor(Date.now() / 1000),
        ...(options.accessToken ? { ath: ath(options.accessToken) } : {}),
        ...options.claims,
      };
      for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
      const signer = options.signWith ?? { key: privateKey, alg };
      return new SignJWT(claims)
        .setProtectedHeader({ typ: 'dpop+jwt', alg: signer.alg, jwk: publicJwk, ...options.header } as never)
        .sign(signer.key);
    },
  };
}
