/** Pieces shared by the two grants that issue tokens for a user (code and refresh). */
import { InvalidGrantError } from '../errors';
import { newSecret } from '../ids';
import type { Client, RefreshToken } from '../model';
import type { RandomSource } from '../ports';

/**
 * Scopes of a grant that the client still holds: a scope ungranted from the client after
 * sign-in is no longer issued (as behaviour KEY-12 does for API keys).
 */
export function stillGranted(scopes: readonly string[], client: Pick<Client, 'scopes'>): string[] {
  return scopes.filter((scope) => client.scopes.includes(scope));
}

/**
 * A new refresh token of the family: an opaque 256-bit secret, stored only as a digest.
 * RFC 6749 6: its scope is that of the grant, whatever the access token was narrowed to.
 */
export function newRefreshToken(value: RefreshToken, random: RandomSource): { token: string; value: RefreshToken } {
  return { token: newSecret(random), value };
}

export const epochSeconds = (ms: number) => Math.floor(ms / 1000);

/** One wire description for every failure of a grant's code or token (RFC 6749 5.2 invalid_grant); the reason is for the log. */
export const invalidGrantOf = (description: string) => (reason: string) => new InvalidGrantError(description, reason);

/** The stored code or refresh token, if still live: DynamoDB TTL deletes late, so an expired one counts as absent. */
export async function live<T extends { readonly expiresAtEpoch: number }>(
  stored: Promise<T | undefined>,
  nowEpoch: number,
  refuse: () => Error,
): Promise<T> {
  const found = await stored;
  if (!found || found.expiresAtEpoch <= nowEpoch) throw refuse();
  return found;
}
