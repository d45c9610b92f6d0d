/**
 * Claims about the user released by scope (OIDC Core 5.4): `profile` releases `name`,
 * `email` releases `email` and `email_verified`, true once the user entered a code mailed to
 * the current address or used a reset link sent there (an address change clears it).
 */
import type { User } from './model';

export function userClaims(user: User, scopes: readonly string[]): Record<string, unknown> {
  return {
    ...(scopes.includes('profile') ? { name: user.name } : {}),
    ...(scopes.includes('email') && user.email ? { email: user.email, email_verified: user.emailVerifiedAt !== undefined } : {}),
  };
}
