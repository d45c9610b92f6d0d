/**
 * Claims about the user released by scope (OIDC Core 5.4): `profile` releases `name`,
 * `email` releases `email` and `email_verified`. Nothing verifies addresses yet (the
 * email-verification endpoints of behaviour SIGNIN-8 are a later issue), so `email_verified` is
 * false rather than a claim we cannot back.
 */
import type { User } from './model';

export function userClaims(user: User, scopes: readonly string[]): Record<string, unknown> {
  return {
    ...(scopes.includes('profile') ? { name: user.name } : {}),
    ...(scopes.includes('email') && user.email ? { email: user.email, email_verified: false } : {}),
  };
}
