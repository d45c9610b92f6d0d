/**
 * The signing key set: every key in it is published in the JWKS, and `currentKid`
 * names the one that signs. Rotation (issue: edge and deployment) adds the next key
 * before it signs anything and drops the previous one only after its tokens expired.
 * Stored as JSON in Secrets Manager in AWS and in `<DATA_DIR>/signing-keys.json` locally.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import * as z from 'zod/mini';
import type { SigningAlgorithm } from '../../config/settings';

export interface SigningKeySet {
  readonly currentKid: string;
  /** Private JWKs, each with `kid`, `alg` and `use: "sig"`. */
  readonly keys: readonly JWK[];
}

const privateJwk = z.looseObject({
  kty: z.enum(['RSA', 'EC']),
  kid: z.string().check(z.minLength(1)),
  alg: z.enum(['RS256', 'ES256']),
  d: z.string().check(z.minLength(1)),
});

const keySetSchema = z
  .object({ currentKid: z.string().check(z.minLength(1)), keys: z.array(privateJwk).check(z.minLength(1)) })
  .check(z.refine((set) => set.keys.some((k) => k.kid === set.currentKid), 'currentKid must name one of the keys'));

/** Parses a stored key set; returns undefined for anything else (a placeholder secret value). */
export function parseKeySet(text: string | undefined): SigningKeySet | undefined {
  if (!text) return undefined;
  try {
    const result = keySetSchema.safeParse(JSON.parse(text));
    return result.success ? (result.data as SigningKeySet) : undefined;
  } catch {
    return undefined;
  }
}

export async function generateSigningKey(alg: SigningAlgorithm): Promise<JWK> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { ...jwk, kid, alg, use: 'sig' };
}

export async function generateKeySet(alg: SigningAlgorithm): Promise<SigningKeySet> {
  const key = await generateSigningKey(alg);
  return { currentKid: key.kid!, keys: [key] };
}

const privateMembers = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']);

/** The public JWKS document (RFC 7517 section 5) of a key set: private members removed. */
export function publicJwks(set: SigningKeySet): { keys: JWK[] } {
  return {
    keys: set.keys.map((key) => Object.fromEntries(Object.entries(key).filter(([name]) => !privateMembers.has(name)))),
  };
}

export interface SignOptions {
  /** Lifetime in seconds. */
  readonly expiresIn: number;
  /** JOSE `typ`; RFC 9068 access tokens use `at+jwt`. */
  readonly type?: string;
  /** Issued-at, in seconds since the epoch. */
  readonly issuedAt: number;
}

export interface JwtSigner {
  readonly kid: string;
  readonly alg: string;
  sign(claims: JWTPayload, options: SignOptions): Promise<string>;
}

/**
 * Signs with jose (SignJWT), the library resource servers and reviewers already trust for JOSE.
 * The current key is imported once per key set (importJWK), so jose's key checks apply before
 * anything is signed: a JWK whose type does not fit its `alg` (an EC key named RS256, a P-384
 * key named ES256) is refused by the import, and an RSA modulus under 2048 bits by jose's
 * signing check, which one trial signature here runs when the signer is made. A bad key set
 * fails at load, not on a request. The header is `{ alg, kid, typ }`; `iat` and `exp` are set
 * from the caller's clock. What this costs per token: README "Benchmarks" (bench/README.md says how to run it).
 */
export async function createSigner(set: SigningKeySet): Promise<JwtSigner> {
  const jwk = set.keys.find((k) => k.kid === set.currentKid)!;
  const alg = jwk.alg as SigningAlgorithm;
  const kid = set.currentKid;
  const key = await importJWK(jwk, alg);
  const sign = (claims: JWTPayload, { expiresIn, type = 'JWT', issuedAt }: SignOptions) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg, kid, typ: type })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + expiresIn)
      .sign(key);
  await sign({}, { expiresIn: 0, issuedAt: 0 });
  return { kid, alg, sign };
}
