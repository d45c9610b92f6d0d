/**
 * The scope snapshot rules of behaviour KEY-11..KEY-13:
 *  1. no scopes selected at creation: the key gets all the client's scopes of that moment
 *     (for a self-service caller, those its own token carries);
 *  2. a scope granted to the client later is not added (the snapshot is stored, never recomputed);
 *  3. a scope ungranted from the client is removed from every key (the ungrant hook), and the
 *     exchange intersects with the client's current scopes, so a half-finished removal never mints it;
 *  4. a key left with no scopes mints nothing (no fallback to the client's scopes);
 *  5. an exchange may narrow the key's scopes, never widen them.
 */
import { InvalidRequestError, InvalidScopeError } from '../errors';
import type { ApiKey, Client } from '../model';
import { narrowScopes } from '../scope';

/**
 * Rules 1 and 2: the scopes stored with a new key. `callerScopes` is the ceiling of a
 * self-service caller: a key outlives the token that created it, so it must never carry a
 * scope that token did not (least privilege: one consent cannot grow into more).
 */
export function snapshotScopes(
  selected: readonly string[] | undefined,
  client: Pick<Client, 'scopes'>,
  callerScopes?: readonly string[],
): string[] {
  const available = callerScopes === undefined ? [...client.scopes] : client.scopes.filter((s) => callerScopes.includes(s));
  if (selected === undefined || selected.length === 0) {
    if (client.scopes.length === 0) {
      throw new InvalidRequestError('scopes: the client is granted no scopes, so a key for it could mint nothing.');
    }
    if (available.length === 0) {
      throw new InvalidRequestError("scopes: your access token carries none of the client's scopes, so a key could mint nothing.");
    }
    return available;
  }
  const unique = [...new Set(selected)];
  const outside = unique.filter((s) => !client.scopes.includes(s));
  if (outside.length > 0) {
    throw new InvalidRequestError(`scopes: not granted to the client: ${outside.map((s) => `"${s}"`).join(', ')}.`);
  }
  const wider = unique.filter((s) => !available.includes(s));
  if (wider.length > 0) {
    throw new InvalidRequestError(`scopes: wider than your own access token: ${wider.map((s) => `"${s}"`).join(', ')}.`);
  }
  return unique;
}

/** Rules 3 to 5: the scopes a token minted now from `key` carries. */
export function exchangeScopes(
  requested: readonly string[],
  key: Pick<ApiKey, 'scopes' | 'keyId'>,
  client: Pick<Client, 'scopes'>,
): string[] {
  const held = key.scopes.filter((s) => client.scopes.includes(s));
  if (held.length === 0) {
    throw new InvalidScopeError(
      'The API key holds no scope, so it mints nothing.',
      `key ${key.keyId} has no scope its client still grants`,
    );
  }
  return narrowScopes(requested, held, 'granted to the API key');
}
