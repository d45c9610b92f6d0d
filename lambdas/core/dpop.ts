/**
 * DPoP proofs (RFC 9449 4.3, behaviour TOKEN-7): the rules a proof must meet, at the token endpoint and at
 * this server's own protected resources. The signature itself is checked by an adapter (jose) with
 * the public key the proof carries; everything else is decided here.
 */
import { createHash } from 'node:crypto';
import { InvalidDpopProofError, UseDpopNonceError } from './errors';
import type { Clock, SingleUseIds } from './ports';

/**
 * Asymmetric algorithms only (RFC 9449 4.3 item 5: never `none` or a MAC): what discovery lists as
 * `dpop_signing_alg_values_supported`, and exactly what the signature check accepts.
 */
export const dpopSigningAlgorithms = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'] as const;

/**
 * Behaviour TOKEN-7: a proof is fresh for a minute after its `iat` (RFC 9449 11.1 leaves the window to
 * the server), and may claim an `iat` up to 5 s ahead of this server's clock (a client's clock skew).
 */
export const dpopProofLifetimeSeconds = 60;
export const dpopProofFutureSkewSeconds = 5;

/** A proof is small (a header with one public key, a few claims); anything longer is refused unread. */
const maxProofLength = 8192;
const compactJws = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** JWK members that only a private (or symmetric) key has (RFC 7518 6.2.2, 6.3.2, 6.4.1). */
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** The signature check (lambdas/adapters/dpop-proof-signature.ts): jose, kept out of core. */
export interface ProofSignature {
  /** The protected header, undefined when it is not a JSON object. Nothing verified yet. */
  header(proof: string): Readonly<Record<string, unknown>> | undefined;
  /**
   * Verifies the signature with the header's own `jwk`, one of `algorithms` only: the payload and the
   * key's RFC 7638 SHA-256 thumbprint, or undefined when the signature or the payload is not valid.
   */
  verify(
    proof: string,
    algorithms: readonly string[],
  ): Promise<{ payload: Readonly<Record<string, unknown>>; thumbprint: string } | undefined>;
}

/** Server nonces (RFC 9449 8, 9): where given, every proof must carry one this accepts. */
export interface DpopNonces {
  /** The nonce a client should use now: sent as `DPoP-Nonce`. */
  current(): string;
  /** Whether a proof's nonce is still good (the current one, or one recently current). */
  accepts(nonce: string): boolean;
}

export interface DpopDependencies {
  readonly signature: ProofSignature;
  /** The `jti` replay cache (RFC 9449 11.1): shared by every container for this server's own endpoints. */
  readonly singleUseIds: Pick<SingleUseIds, 'use'>;
  readonly clock: Clock;
  /** Absent: no nonce is asked for, and a proof's `nonce` is ignored (behaviour TOKEN-10). */
  readonly nonces?: DpopNonces;
}

/** The request a proof must be for. */
export interface ProofTarget {
  /** The HTTP method (`htm`). */
  readonly method: string;
  /** The URL the client called (`htu`), as discovery names it; query and fragment are not compared (RFC 9449 4.3 item 9). */
  readonly url: string;
  /** At a protected resource: the access token the proof must hash in `ath` (RFC 9449 4.3 item 11). */
  readonly accessToken?: string;
  /** 400 at the token endpoint; 401 at a protected resource, with the challenge it sends (RFC 9449 7.1). */
  readonly status?: 400 | 401;
  readonly challenge?: string;
}

/** The key a valid proof showed possession of: its RFC 7638 thumbprint, the `cnf.jkt` it binds tokens to. */
export interface ProvenKey {
  readonly jkt: string;
}

/** An access token's hash as a proof's `ath` carries it (RFC 9449 4.2): base64url SHA-256 of its ASCII. */
export const accessTokenHash = (accessToken: string): string => createHash('sha256').update(accessToken, 'ascii').digest('base64url');

/** A URL compared as RFC 9449 4.3 item 9 says: no query, no fragment, scheme and host normalized (RFC 3986 6.2.2, 6.2.3). */
export function comparableHtu(value: string): string | undefined {
  try {
    const url = new URL(value);
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 9449 4.3 items 1-12, behaviour TOKEN-7; the proof's `jti` is used up only once everything else held. */
export async function checkDpopProof(proof: string, target: ProofTarget, deps: DpopDependencies): Promise<ProvenKey> {
  const refuse = (description: string, reason: string = description) =>
    new InvalidDpopProofError(description, reason, {
      status: target.status ?? 400,
      ...(target.challenge ? { headers: { 'WWW-Authenticate': target.challenge } } : {}),
    });
  if (proof.length > maxProofLength || !compactJws.test(proof)) throw refuse('The DPoP proof is not a signed JWT.');
  const header = deps.signature.header(proof);
  if (!header) throw refuse('The DPoP proof is not a signed JWT.');
  if (header.typ !== 'dpop+jwt') throw refuse('The DPoP proof must have typ "dpop+jwt".', `typ ${String(header.typ).slice(0, 32)}`);
  if (typeof header.alg !== 'string' || !(dpopSigningAlgorithms as readonly string[]).includes(header.alg)) {
    throw refuse(
      `The DPoP proof must be signed with one of ${dpopSigningAlgorithms.join(', ')}.`,
      `alg ${String(header.alg).slice(0, 16)}`,
    );
  }
  if (!isRecord(header.jwk)) throw refuse('The DPoP proof must carry its public key as jwk.');
  const jwk = header.jwk;
  if (privateMembers.some((member) => member in jwk))
    throw refuse('The DPoP proof jwk must be a public key; it holds private key material.');
  const verified = await deps.signature.verify(proof, dpopSigningAlgorithms);
  if (!verified) throw refuse('The DPoP proof signature is not valid for its jwk.');
  const { payload, thumbprint } = verified;

  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256)
    throw refuse('The DPoP proof must have a jti.');
  if (payload.htm !== target.method)
    throw refuse(`The DPoP proof htm must be ${target.method}.`, `htm ${String(payload.htm).slice(0, 16)}`);
  const htu = typeof payload.htu === 'string' ? comparableHtu(payload.htu) : undefined;
  if (!htu || htu !== comparableHtu(target.url)) {
    throw refuse(`The DPoP proof htu must be ${target.url}.`, `htu ${String(payload.htu).slice(0, 256)}`);
  }
  const iat = payload.iat;
  const nowEpoch = Math.floor(deps.clock.now() / 1000);
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw refuse('The DPoP proof must have an iat.');
  if (iat > nowEpoch + dpopProofFutureSkewSeconds || iat < nowEpoch - dpopProofLifetimeSeconds) {
    throw refuse(`The DPoP proof iat must be within the last ${dpopProofLifetimeSeconds} seconds.`, `iat ${iat}, now ${nowEpoch}`);
  }
  if (target.accessToken !== undefined && payload.ath !== accessTokenHash(target.accessToken)) {
    throw refuse('The DPoP proof ath does not match the access token.');
  }
  // RFC 9449 8, 9, behaviour TOKEN-10: checked last but for the jti, so the retry it asks for fixes the only fault.
  if (deps.nonces && (typeof payload.nonce !== 'string' || !deps.nonces.accepts(payload.nonce))) {
    throw new UseDpopNonceError(
      payload.nonce === undefined
        ? 'The DPoP proof must carry the server nonce of DPoP-Nonce.'
        : 'The DPoP proof nonce is no longer valid; use the one in DPoP-Nonce.',
      `nonce ${payload.nonce === undefined ? 'missing' : 'stale'}`,
      {
        status: target.status ?? 400,
        headers: {
          'DPoP-Nonce': deps.nonces.current(),
          ...(target.challenge ? { 'WWW-Authenticate': target.challenge.replace(/error="[a-z_]+"/, 'error="use_dpop_nonce"') } : {}),
        },
      },
    );
  }
  // RFC 9449 11.1: a proof is used once. Scoped by its key, so two clients' ids never collide; kept
  // for as long as the proof would be fresh.
  const first = await deps.singleUseIds.use('dpop-proof', thumbprint, payload.jti, Math.floor(iat) + dpopProofLifetimeSeconds);
  if (!first) throw refuse('The DPoP proof was already used.', `jti ${payload.jti.slice(0, 64)} replayed`);
  return { jkt: thumbprint };
}
