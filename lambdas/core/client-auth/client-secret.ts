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
  const credential = `${client.clientId}\u0000${presented.secret}`;
  if (deps.secretCache.has(credential, client.secretHash)) return;
  if (!(await deps.hasher.verify(client.secretHash, presented.secret))) throw clientAuthFailed('wrong client secret');
  deps.secretCache.remember(credential, client.secretHash);
}
