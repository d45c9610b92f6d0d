/**
 * Access and ID tokens. Access tokens are JWTs in the RFC 9068 profile (header
 * `typ: at+jwt`; iss, exp, aud, sub, client_id, iat, jti, scope). `aud` is the RFC 8707
 * resource when one was requested, else the issuer itself: such a token is for this
 * server's own endpoints (userinfo, the admin API) and no resource server accepts it.
 */
import { newId } from './ids';
import { lifetimes, longestSignedTokenLifetime } from './lifetimes';
import type { Clock, RandomSource, TokenSigner } from './ports';
import { formatScope } from './scope';

export interface TokenDependencies {
  readonly issuer: string;
  readonly signer: TokenSigner;
  readonly clock: Clock;
  readonly random: RandomSource;
}

export interface AccessTokenRequest {
  readonly clientId: string;
  /** Absent for client_credentials (behaviour CLAIM-1). */
  readonly sub?: string;
  readonly scopes: readonly string[];
  readonly resource?: string;
  /** Key-minted tokens carry their key (behaviour KEYX-6). */
  readonly apiKeyId?: string;
  /**
   * RFC 8176 methods of the sign-in behind a user's token (code and refresh grants): this server's
   * own bearer checks hold them to the MFA policy in force (behaviour MFA-11, CLAIM-11).
   */
  readonly amr?: readonly string[];
  readonly lifetime?: number;
  /** RFC 9449 6.1, behaviour CLAIM-12: the RFC 7638 thumbprint of the DPoP key the token is bound to (`cnf.jkt`). */
  readonly jkt?: string;
}

export interface MintedAccessToken {
  readonly accessToken: string;
  readonly jti: string;
  readonly expiresIn: number;
  readonly expiresAtEpoch: number;
  readonly scope: string;
  /** RFC 9449 5: `DPoP` for a token bound to a key, else `Bearer`. */
  readonly tokenType: 'Bearer' | 'DPoP';
}

export async function mintAccessToken(request: AccessTokenRequest, deps: TokenDependencies): Promise<MintedAccessToken> {
  const issuedAt = Math.floor(deps.clock.now() / 1000);
  const expiresIn = request.lifetime ?? lifetimes.accessToken;
  // Key rotation keeps a key published only this long after it stopped signing (behaviour CLAIM-10).
  if (expiresIn > longestSignedTokenLifetime()) throw new Error(`token lifetime ${expiresIn} s exceeds longestSignedTokenLifetime`);
  const jti = newId('at_', deps.random);
  const scope = formatScope(request.scopes);
  const claims: Record<string, unknown> = {
    iss: deps.issuer,
    aud: request.resource ?? deps.issuer,
    ...(request.sub ? { sub: request.sub } : {}),
    client_id: request.clientId,
    jti,
    ...(scope ? { scope } : {}),
    ...(request.apiKeyId ? { api_key_id: request.apiKeyId } : {}),
    ...(request.amr?.length ? { amr: [...request.amr] } : {}),
    ...(request.jkt ? { cnf: { jkt: request.jkt } } : {}),
  };
  const accessToken = await deps.signer.sign(claims, { expiresIn, type: 'at+jwt', issuedAt });
  return { accessToken, jti, expiresIn, expiresAtEpoch: issuedAt + expiresIn, scope, tokenType: request.jkt ? 'DPoP' : 'Bearer' };
}

export interface IdTokenRequest {
  readonly clientId: string;
  readonly sub: string;
  readonly authTime: number;
  /** RFC 8176 authentication method references of the sign-in. */
  readonly amr?: readonly string[];
  readonly nonce?: string;
  /** Claims released by the granted scopes (profile: name; email: email). */
  readonly claims?: Record<string, unknown>;
}

/** OpenID Connect Core 1.0 section 2: an ID token for the client (`aud` = client_id). */
export async function mintIdToken(request: IdTokenRequest, deps: TokenDependencies): Promise<string> {
  const issuedAt = Math.floor(deps.clock.now() / 1000);
  return deps.signer.sign(
    {
      iss: deps.issuer,
      sub: request.sub,
      aud: request.clientId,
      auth_time: request.authTime,
      ...(request.amr?.length ? { amr: [...request.amr] } : {}),
      ...(request.nonce ? { nonce: request.nonce } : {}),
      ...request.claims,
    },
    { expiresIn: lifetimes.idToken, issuedAt },
  );
}
