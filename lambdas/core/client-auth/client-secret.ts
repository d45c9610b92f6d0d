/**
 * The check both client-secret methods share (RFC 6749 2.3.1): the secret against the stored
 * Argon2id hash, or against the verified-secret cache, so a repeat request skips Argon2id
 * (behaviour TOKEN-3).
 */
import { InvalidClientError } from '../errors';
import type { Client } from '../model';
import type { PresentedClient } from './method';
import type { ClientAuthDependencies } from './ports';

export const clientAuthFailed = (reason: string) => new InvalidClientError('Client authentication failed.', reason);

export async function verifyClientSecret(client: Client, presented: PresentedClient, deps: ClientAuthDependencies): Promise<void> {
  if (presented.secret === undefined || !client.secretHash) throw clientAuthFailed('a confidential client presented no secret');
  if (await secretMatches(client.clientId, presented.secret, client.secretHash, deps)) return;
  // Behaviour ADMIN-20: the rotated-out secret, only until its overlap ends. The end is checked
  // before the cache, so a remembered old secret never outlives it.
  const previous = client.previousSecretHash;
  const overlapEnds = client.previousSecretExpiresAtEpoch;
  if (previous && overlapEnds !== undefined && deps.clock.now() < overlapEnds * 1000) {
    if (await secretMatches(client.clientId, presented.secret, previous, deps)) return;
  }
  throw clientAuthFailed('wrong client secret');
}

/** The cache is keyed by the presented credential and holds the hash it matched, so each secret of a client has its own entry. */
async function secretMatches(clientId: string, secret: string, storedHash: string, deps: ClientAuthDependencies): Promise<boolean> {
  const credential = `${clientId}\u0000${secret}`;
  if (deps.secretCache.recall(credential)?.storedHash === storedHash) return true;
  if (!(await deps.hasher.verify(storedHash, secret))) return false;
  deps.secretCache.remember(credential, storedHash);
  return true;
}
