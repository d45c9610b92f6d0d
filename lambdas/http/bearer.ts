/**
 * Bearer authentication for this server's own endpoints (RFC 6750): a valid signature,
 * issuer, expiry and `typ: at+jwt`, the audience (the issuer itself unless the endpoint
 * says otherwise), and no revocation: the issued-token record, its client and its refresh
 * family are checked, so a revoked family's or a deleted client's tokens stop here at once.
 * A token of a sign-in (one with a family) is also held to its user as stored now: the
 * family's password version must still be the user's (behaviour BEARER-1, RESET-12), so a
 * password change ends its access tokens here at once, even when the change's sweep of the
 * user's families went through an index that had not shown this family yet.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { checkDpopProof, dpopSigningAlgorithms, type DpopDependencies } from '../core/dpop';
import { InvalidDpopProofError, InvalidRequestError, InvalidTokenError } from '../core/errors';
import type { AccessTokenVerifier } from '../adapters/signing/verifier';
import type { Client, FamilyState, IssuedToken, User } from '../core/model';
import type { Clock } from '../core/ports';
import { header } from './body';
import { dpopProofOf, requestUrl } from './dpop';
import { labelClient } from './request-context';

export interface AccessTokenClaims {
  readonly jti: string;
  readonly client_id: string;
  readonly sub?: string;
  readonly scope?: string;
  readonly aud: string | string[];
  readonly exp: number;
  readonly iat: number;
  readonly api_key_id?: string;
  /** RFC 8176 methods of the sign-in behind a user's token (behaviour MFA-11, CLAIM-11). */
  readonly amr?: readonly string[];
  /** RFC 9449 6.1: the DPoP key a bound token may only be used with (behaviour CLAIM-12). */
  readonly cnf?: { readonly jkt?: string };
}

/** The one refusal of an unusable token: the reason goes to the log only. */
export const invalidToken = (reason: string, cause?: unknown) =>
  new InvalidTokenError('The access token is missing, invalid, expired or revoked.', reason, {
    headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
    ...(cause !== undefined ? { cause } : {}),
  });

export function bearerToken(event: Pick<APIGatewayProxyEvent, 'headers'>): string {
  const value = header(event, 'authorization');
  if (!value) {
    throw new InvalidTokenError('A bearer access token is required.', 'no Authorization header', {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  }
  const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(value);
  if (!match) {
    // RFC 6750 3
    throw new InvalidRequestError('The Authorization header must be "Bearer <token>".', undefined, {
      headers: { 'WWW-Authenticate': 'Bearer error="invalid_request"' },
    });
  }
  return match[1]!;
}

/**
 * Pass as the audience to accept a token minted for any resource: introspection without
 * `resource` (RFC 7662 returns `aud` for the caller to check).
 */
export const anyAudience: unique symbol = Symbol('anyAudience');

/** What a bearer check reads: the verifier, the issued-token records and families, the clients and the users. */
export interface BearerDependencies {
  readonly issuer: string;
  readonly clock: Clock;
  readonly verifier: () => Promise<AccessTokenVerifier>;
  readonly tokens: {
    getTokenRecord(jti: string, nowEpoch: number): Promise<IssuedToken | undefined>;
    familyState(familyId: string): Promise<FamilyState | undefined>;
  };
  readonly clients: { get(clientId: string): Promise<Client | undefined> };
  /** The user as stored now (strongly consistent: a password change a moment ago counts, behaviour RESET-12). */
  readonly users: { current(id: string): Promise<User | undefined> };
  /** Where given, `Authorization: DPoP` is accepted with a proof (behaviour BEARER-5); elsewhere only Bearer. */
  readonly dpop?: DpopDependencies;
}

/** What a bearer check hands back: the claims, the token's client and its user, each read once. */
export interface VerifiedToken {
  readonly claims: AccessTokenClaims;
  readonly client: Client;
  /**
   * The token's user (`sub`) as stored now, read strongly consistently at most once per check:
   * already read for a token of a sign-in, read on first call for a key-minted one; undefined
   * for a token without `sub` or whose user no longer exists.
   */
  readonly user: () => Promise<User | undefined>;
  /** How the token came (verifyPresented): a later refusal challenges with the same scheme (RFC 9449 7.1). */
  readonly scheme?: 'Bearer' | 'DPoP';
}

/**
 * Verifies the token and that it is not revoked; `audience` defaults to the issuer. A workload's
 * token (behaviour WIF-4) passes here, where only its claims are asked for (introspection): its
 * client_id is the trusted issuer it came through, which is no client.
 */
export async function verifyAccessToken(
  token: string,
  deps: BearerDependencies,
  audience?: string | typeof anyAudience,
): Promise<AccessTokenClaims> {
  return (await checkToken(token, deps, audience, true)).claims;
}

/** verifyAccessToken, also handing back the token's client and user as this check read them (no second read). */
export async function verifyWithClient(
  token: string,
  deps: BearerDependencies,
  audience?: string | typeof anyAudience,
): Promise<VerifiedToken> {
  const { claims, client, user } = await checkToken(token, deps, audience, false);
  // checkToken refuses a token without its client unless workloads are accepted.
  return { claims, client: client!, user };
}

async function checkToken(
  token: string,
  deps: BearerDependencies,
  audience: string | typeof anyAudience | undefined,
  acceptWorkloads: boolean,
): Promise<Omit<VerifiedToken, 'client'> & { readonly client?: Client }> {
  const { issuer, clock, tokens } = deps;
  let claims: AccessTokenClaims;
  try {
    const verifier = await deps.verifier();
    claims = (await verifier.verify(token, {
      issuer,
      audience: audience === anyAudience ? undefined : (audience ?? issuer),
    })) as unknown as AccessTokenClaims;
  } catch (error) {
    throw invalidToken(`verification failed: ${(error as Error).message}`, error);
  }
  labelClient(claims.client_id);
  const nowEpoch = Math.floor(clock.now() / 1000);
  const { sub } = claims;
  // A token of a sign-in (a user's, not minted by an API key) is held to its user as stored now
  // (behaviour BEARER-1, RESET-12): the user is read with the token record and the client, in
  // parallel, so the check costs one more read and no more time. Key-minted tokens have no
  // family: KEY-17's key generation governs them, and their user is read only if a caller asks.
  const ofSignIn = sub !== undefined && claims.api_key_id === undefined;
  // A deleted client's tokens stop at once, whatever their kind (client_credentials tokens
  // have no family to revoke).
  const [record, client, signedInUser] = await Promise.all([
    tokens.getTokenRecord(claims.jti, nowEpoch),
    deps.clients.get(claims.client_id),
    ofSignIn ? deps.users.current(sub) : undefined,
  ]);
  if (!record) throw invalidToken(`no record of token ${claims.jti}`);
  const ofWorkload = record.trustedIssuerId !== undefined && record.trustedIssuerId === claims.client_id;
  if (!client && !(acceptWorkloads && ofWorkload)) throw invalidToken(`client ${claims.client_id} of token ${claims.jti} no longer exists`);
  if (record.familyId) {
    const family = await tokens.familyState(record.familyId);
    if (!family || family.revoked) throw invalidToken(`family ${record.familyId} revoked`);
    // The same answer as a revoked family: a password change (or RESET-9's "Remove all") since
    // the sign-in is a fact read from the user record, which the family sweep of RESET-7 may
    // have missed through its lagging index.
    if (!signedInUser || signedInUser.id !== family.userId)
      throw invalidToken(`user ${sub ?? '(none)'} of family ${record.familyId} no longer exists`);
    if ((signedInUser.credentialVersion ?? 0) !== family.credentialVersion)
      throw invalidToken(
        `password changed since the sign-in of family ${record.familyId} (credential version ${family.credentialVersion}, now ${signedInUser.credentialVersion ?? 0})`,
      );
  }
  let keyUser: Promise<User | undefined> | undefined;
  const user = () => {
    if (ofSignIn) return Promise.resolve(signedInUser);
    if (sub === undefined) return Promise.resolve(undefined);
    keyUser ??= deps.users.current(sub);
    return keyUser;
  };
  return { claims, client, user };
}

/** requireBearer, handing back the client and user the check read (userinfo, the account endpoints). */
export async function requireVerifiedBearer(event: PresentingEvent, deps: BearerDependencies, audience?: string): Promise<VerifiedToken> {
  return verifyPresented(event, deps, audience);
}

export async function requireBearer(event: PresentingEvent, deps: BearerDependencies, audience?: string): Promise<AccessTokenClaims> {
  return (await verifyPresented(event, deps, audience)).claims;
}

/** The request a DPoP proof at this server's own endpoints is checked against (RFC 9449 7.1). */
type PresentingEvent = Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders' | 'httpMethod' | 'path'>;

/** RFC 9449 7.1: a DPoP challenge names the algorithms a proof may use. */
const dpopAlgs = `algs="${dpopSigningAlgorithms.join(' ')}"`;
export const dpopChallenge = (error?: string) => (error ? `DPoP error="${error}", ${dpopAlgs}` : `DPoP ${dpopAlgs}`);

const sentAsDpop = (description: string, reason: string, cause?: unknown) =>
  new InvalidTokenError(description, reason, {
    headers: { 'WWW-Authenticate': dpopChallenge('invalid_token') },
    ...(cause !== undefined ? { cause } : {}),
  });

/** The access token of the Authorization header and its scheme: Bearer (RFC 6750 2.1), or DPoP where accepted (RFC 9449 7.1). */
function presentedToken(event: Pick<APIGatewayProxyEvent, 'headers'>, acceptsDpop: boolean): { token: string; scheme: 'Bearer' | 'DPoP' } {
  if (!acceptsDpop) return { token: bearerToken(event), scheme: 'Bearer' };
  const value = header(event, 'authorization');
  if (!value) {
    throw new InvalidTokenError('An access token is required.', 'no Authorization header', {
      headers: { 'WWW-Authenticate': `Bearer, ${dpopChallenge()}` },
    });
  }
  const match = /^(Bearer|DPoP)\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(value);
  if (!match) {
    throw new InvalidRequestError('The Authorization header must be "Bearer <token>" or "DPoP <token>".', undefined, {
      headers: { 'WWW-Authenticate': `Bearer error="invalid_request", ${dpopChallenge('invalid_request')}` },
    });
  }
  return { token: match[2]!, scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer' };
}

/**
 * The access token of the request, verified as verifyWithClient does, and held to its key (behaviour
 * BEARER-5): a DPoP-bound token only with the DPoP scheme and a valid proof of that key for this
 * request and this token (`ath`); a bound token sent as Bearer is refused (RFC 9449 7.2), as is an
 * unbound one sent as DPoP.
 */
export async function verifyPresented(event: PresentingEvent, deps: BearerDependencies, audience?: string): Promise<VerifiedToken> {
  const { token, scheme } = presentedToken(event, deps.dpop !== undefined);
  if (scheme === 'Bearer') {
    const verified = await verifyWithClient(token, deps, audience);
    if (verified.claims.cnf?.jkt !== undefined) {
      throw sentAsDpop(
        'This access token is bound to a DPoP key: send it as "DPoP <token>" with a proof.',
        'DPoP-bound token sent as Bearer',
      );
    }
    return { ...verified, scheme };
  }
  let verified: VerifiedToken;
  try {
    verified = await verifyWithClient(token, deps, audience);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw sentAsDpop(error.description, error.reason, error);
    throw error;
  }
  const jkt = verified.claims.cnf?.jkt;
  if (jkt === undefined)
    throw sentAsDpop('This access token is not bound to a DPoP key: send it as "Bearer <token>".', 'unbound token sent as DPoP');
  const refusal = { status: 401 as const, challenge: dpopChallenge('invalid_dpop_proof') };
  const proof = dpopProofOf(event, refusal);
  if (proof === undefined)
    throw new InvalidDpopProofError('A DPoP proof is required with a DPoP access token.', 'no DPoP header', {
      ...refusal,
      headers: { 'WWW-Authenticate': refusal.challenge },
    });
  const proven = await checkDpopProof(
    proof,
    { method: event.httpMethod, url: requestUrl(deps.issuer, event), accessToken: token, ...refusal },
    deps.dpop!,
  );
  if (proven.jkt !== jkt) {
    throw new InvalidDpopProofError(
      'The DPoP proof is not signed by the key the access token is bound to.',
      `proof key ${proven.jkt}, token key ${jkt}`,
      {
        ...refusal,
        headers: { 'WWW-Authenticate': refusal.challenge },
      },
    );
  }
  return { ...verified, scheme };
}
