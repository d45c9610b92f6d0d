/**
 * Bearer authentication for this server's own endpoints (RFC 6750): a valid signature,
 * issuer, expiry and `typ: at+jwt`, the audience (the issuer itself unless the endpoint
 * says otherwise), and no revocation: the issued-token record, its client and its refresh
 * family are checked, so a revoked family's or a deleted client's tokens stop here at once.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { InvalidRequestError, InvalidTokenError } from '../core/errors';
import type { AccessTokenVerifier } from '../adapters/signing/verifier';
import type { Client, IssuedToken } from '../core/model';
import type { Clock } from '../core/ports';
import { header } from './body';
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
}

const invalidToken = (reason: string, cause?: unknown) =>
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

/** What a bearer check reads: the verifier, the issued-token records and the clients. */
export interface BearerDependencies {
  readonly issuer: string;
  readonly clock: Clock;
  readonly verifier: () => Promise<AccessTokenVerifier>;
  readonly tokens: {
    getTokenRecord(jti: string, nowEpoch: number): Promise<IssuedToken | undefined>;
    isFamilyRevoked(familyId: string): Promise<boolean>;
  };
  readonly clients: { get(clientId: string): Promise<Client | undefined> };
}

/** Verifies the token and that it is not revoked; `audience` defaults to the issuer. */
export async function verifyAccessToken(
  token: string,
  deps: BearerDependencies,
  audience?: string | typeof anyAudience,
): Promise<AccessTokenClaims> {
  return (await verifyWithClient(token, deps, audience)).claims;
}

/** verifyAccessToken, also handing back the token's client as this check read it (no second read). */
export async function verifyWithClient(
  token: string,
  deps: BearerDependencies,
  audience?: string | typeof anyAudience,
): Promise<{ readonly claims: AccessTokenClaims; readonly client: Client }> {
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
  // A deleted client's tokens stop at once, whatever their kind (client_credentials tokens
  // have no family to revoke): the client is read with the token record, in parallel.
  const [record, client] = await Promise.all([tokens.getTokenRecord(claims.jti, nowEpoch), deps.clients.get(claims.client_id)]);
  if (!record) throw invalidToken(`no record of token ${claims.jti}`);
  if (!client) throw invalidToken(`client ${claims.client_id} of token ${claims.jti} no longer exists`);
  if (record.familyId && (await tokens.isFamilyRevoked(record.familyId))) throw invalidToken(`family ${record.familyId} revoked`);
  return { claims, client };
}

export async function requireBearer(
  event: Pick<APIGatewayProxyEvent, 'headers'>,
  deps: BearerDependencies,
  audience?: string,
): Promise<AccessTokenClaims> {
  return verifyAccessToken(bearerToken(event), deps, audience);
}
