/** The successful token response (RFC 6749 5.1; OIDC Core 3.1.3.3 adds `id_token`). */
import type { MintedAccessToken } from '../tokens';

export interface TokenResponse {
  readonly access_token: string;
  /** `DPoP` for a token bound to the proof's key (RFC 9449 5, behaviour TOKEN-8). */
  readonly token_type: 'Bearer' | 'DPoP';
  readonly expires_in: number;
  /** Always present, so a client sees a narrowed grant without comparing (RFC 6749 5.1). */
  readonly scope: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
}

export function tokenResponse(access: MintedAccessToken, extra: { refreshToken?: string; idToken?: string } = {}): TokenResponse {
  return {
    access_token: access.accessToken,
    token_type: access.tokenType,
    expires_in: access.expiresIn,
    scope: access.scope,
    ...(extra.refreshToken ? { refresh_token: extra.refreshToken } : {}),
    ...(extra.idToken ? { id_token: extra.idToken } : {}),
  };
}
