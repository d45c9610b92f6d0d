/**
 * DPoP for resource servers (RFC 9449 7, behaviour RS-2): a token with `cnf.jkt` is accepted only
 * as `Authorization: DPoP <token>` with a proof of that key for this request (`htm`, `htu`, `ath`,
 * `iat` window, `jti` once, and the server nonce when the resource asks for one). The rules are
 * the authorization server's own (lambdas/core/dpop.ts); nothing here reads its storage.
 */
import { checkDpopProof, dpopSigningAlgorithms, type DpopNonces } from '../core/dpop';
import { InvalidDpopProofError, UseDpopNonceError } from '../core/errors';
import { dpopProofSignature } from '../adapters/dpop-proof-signature';

/** Remembers proof ids until they expire: true the first time, false for a replay. */
export interface DpopReplayCache {
  use(id: string, expiresAtEpoch: number): boolean | Promise<boolean>;
}

export interface DpopOptions {
  /**
   * Where used proof ids are kept. Default: this process's memory, which refuses a replay to the
   * same process only; with several instances, give a shared store (Redis, DynamoDB) or nonces.
   */
  readonly replayCache?: DpopReplayCache;
  /** Server nonces (RFC 9449 9): when given, every proof must carry one these accept. */
  readonly nonces?: DpopNonces;
}

/** The request a DPoP proof must be for. */
export interface DpopRequest {
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The URL the client called (query and fragment are not compared). */
  readonly url: string | URL;
  /** The `DPoP` header: its one value, or every value when the framework lists them. */
  readonly dpop?: string | readonly string[];
}

/** The in-memory default: entries go once they expire, checked on each use. */
export function memoryReplayCache(now: () => number = () => Date.now()): DpopReplayCache {
  const seen = new Map<string, number>();
  return {
    use(id, expiresAtEpoch) {
      const nowEpoch = Math.floor(now() / 1000);
      for (const [key, expiry] of seen) if (expiry <= nowEpoch) seen.delete(key);
      if (seen.has(id)) return false;
      seen.set(id, expiresAtEpoch);
      return true;
    },
  };
}

/** RFC 9449 7.1: the DPoP challenge names the accepted algorithms. */
export const dpopAlgs = `algs="${dpopSigningAlgorithms.join(' ')}"`;

export type ProofRefusal = { code: 'invalid_dpop_proof' | 'use_dpop_nonce'; message: string; nonce?: string };

/** Checks the request's proof against the token's key; a refusal to turn into a 401, or undefined when it holds. */
export async function refusedProof(
  token: string,
  jkt: string,
  request: DpopRequest,
  options: DpopOptions,
  replayCache: DpopReplayCache,
): Promise<ProofRefusal | undefined> {
  const values = request.dpop === undefined ? [] : typeof request.dpop === 'string' ? [request.dpop] : [...request.dpop];
  if (values.length === 0) return { code: 'invalid_dpop_proof', message: 'A DPoP proof is required with a DPoP access token.' };
  if (values.length > 1 || values[0]!.includes(',')) return { code: 'invalid_dpop_proof', message: 'Send exactly one DPoP header.' };
  try {
    const proven = await checkDpopProof(
      values[0]!.trim(),
      { method: request.method.toUpperCase(), url: String(request.url), accessToken: token, status: 401 },
      {
        signature: dpopProofSignature,
        clock: { now: () => Date.now() },
        singleUseIds: { use: async (_purpose, keyId, jti, expiresAtEpoch) => replayCache.use(`${keyId}:${jti}`, expiresAtEpoch) },
        ...(options.nonces ? { nonces: options.nonces } : {}),
      },
    );
    if (proven.jkt !== jkt)
      return { code: 'invalid_dpop_proof', message: 'The DPoP proof is not signed by the key the access token is bound to.' };
    return undefined;
  } catch (error) {
    if (error instanceof InvalidDpopProofError) return { code: 'invalid_dpop_proof', message: error.description };
    if (error instanceof UseDpopNonceError)
      return { code: 'use_dpop_nonce', message: error.description, nonce: error.headers['DPoP-Nonce'] };
    throw error;
  }
}
