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
  const hashes = liveSecretHashes(client, deps.clock.now());
  // The cache is keyed by the presented credential and holds the hash it matched, so a secret
  // remembered against either live hash skips Argon2id, the rotated-out one included.
  const credential = `${client.clientId}\u0000${presented.secret}`;
  const remembered = deps.secretCache.recall(credential)?.storedHash;
  if (remembered !== undefined && hashes.includes(remembered)) return;
  for (const hash of hashes) {
    if (await deps.hasher.verify(hash, presented.secret)) {
      deps.secretCache.remember(credential, hash);
      return;
    }
  }
  throw clientAuthFailed('wrong client secret');
}

/**
 * The current secret's hash, then (behaviour ADMIN-20) the rotated-out one until its overlap ends.
 * The end is checked here, before the cache, so a remembered old secret never outlives it.
 */
function liveSecretHashes(client: Client, nowMs: number): readonly string[] {
  const previous = client.previousSecretHash;
  const overlapEnds = client.previousSecretExpiresAtEpoch;
  const previousLive = previous !== undefined && overlapEnds !== undefined && nowMs < overlapEnds * 1000;
  return previousLive ? [client.secretHash!, previous] : [client.secretHash!];
}
