/**
 * Issuing an authorization code (OAuth 2.1 4.1.2): 256 random bits, stored only as a digest
 * (token store), bound to the client, redirect URI, PKCE challenge, resource and user, and
 * short-lived (lifetimes.authorizationCode; behaviour CLAIM-3).
 */
import type { AuthorizationRequest } from './authorization-request';
import { newSecret } from './ids';
import { lifetimes } from './lifetimes';
import type { AuthorizationCode, Client } from './model';
import type { RandomSource } from './ports';

export interface SignedInUser {
  readonly userId: string;
  /** Epoch seconds of the sign-in (ID token auth_time). */
  readonly authTime: number;
  /** RFC 8176 authentication methods of that sign-in (ID token amr; behaviour MFA-9). */
  readonly amr?: readonly string[];
  /** The user's credentialVersion at that sign-in (behaviour RESET-12). */
  readonly credentialVersion?: number;
}

export function newAuthorizationCode(
  request: AuthorizationRequest,
  user: SignedInUser,
  random: RandomSource,
  nowEpoch: number,
): { readonly code: string; readonly value: AuthorizationCode } {
  const value: AuthorizationCode = {
    clientId: request.clientId,
    userId: user.userId,
    scopes: [...request.scopes],
    ...(request.resource !== undefined ? { resource: request.resource } : {}),
    authTime: user.authTime,
    redirectUri: request.redirectUri,
    ...(request.redirectUriNamed ? { redirectUriNamed: true } : {}),
    codeChallenge: request.codeChallenge,
    ...(request.nonce !== undefined ? { nonce: request.nonce } : {}),
    // RFC 9449 10, behaviour CODE-5: the redemption must prove this key.
    ...(request.dpopJkt !== undefined ? { dpopJkt: request.dpopJkt } : {}),
    ...(user.amr ? { amr: [...user.amr] } : {}),
    ...(user.credentialVersion !== undefined ? { credentialVersion: user.credentialVersion } : {}),
    expiresAtEpoch: nowEpoch + lifetimes.authorizationCode,
  };
  return { code: newSecret(random), value };
}

/**
 * The environment a user must have been granted to authorize this client (behaviour ENV-1):
 * for dynamically registered clients, the configured DCR environment.
 */
export function requiredEnvironment(client: Client, dcrEnvironmentId: string | undefined): string {
  return client.registrationType === 'dynamic' && dcrEnvironmentId ? dcrEnvironmentId : client.environmentId;
}
