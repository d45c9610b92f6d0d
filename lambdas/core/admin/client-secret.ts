/**
 * Client-secret rotation (behaviour ADMIN-20): a new secret, shown once, while the one it replaces
 * keeps working for an overlap, so the client's deployments can change over without an outage.
 */
import { InvalidRequestError } from '../errors';
import { newSecret } from '../ids';
import type { Client } from '../model';
import { type AdminActor, auditEntryOf } from './audit';
import { found, noSuch } from './not-found';
import type { AdminDependencies } from './ports';

/** Behaviour ADMIN-20: a day unless asked otherwise; at most a week, so a leaked secret cannot be kept alive for long. */
export const defaultSecretOverlapSeconds = 24 * 3600;
export const maxSecretOverlapSeconds = 7 * 24 * 3600;

export interface RotatedSecret {
  readonly client: Client;
  /** In the clear this one time; only its hash is stored. */
  readonly secret: string;
  /** When the replaced secret stops working; absent when it stopped at once (an overlap of 0). */
  readonly previousSecretExpiresAt?: string;
}

export async function rotateClientSecret(
  deps: Pick<AdminDependencies, 'clients' | 'hasher' | 'random' | 'clock' | 'notifySecretRotated'>,
  actor: AdminActor,
  input: { readonly clientId: string; readonly overlapSeconds?: number },
): Promise<RotatedSecret> {
  const overlap = input.overlapSeconds ?? defaultSecretOverlapSeconds;
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > maxSecretOverlapSeconds) {
    throw new InvalidRequestError(`overlap_seconds: must be a whole number of seconds from 0 to ${maxSecretOverlapSeconds}.`);
  }
  const current = found(await deps.clients.get(input.clientId), 'client', input.clientId);
  if (!current.secretHash) throw new InvalidRequestError(noSecretReason(current));
  const secret = newSecret(deps.random);
  const expiresAtEpoch = overlap > 0 ? Math.floor(deps.clock.now() / 1000) + overlap : undefined;
  const previousSecretExpiresAt = expiresAtEpoch === undefined ? undefined : new Date(expiresAtEpoch * 1000).toISOString();
  const audit = auditEntryOf(deps, actor, {
    type: 'client.secret_rotate',
    clientId: current.clientId,
    reason: previousSecretExpiresAt ? `previous secret valid until ${previousSecretExpiresAt}` : 'previous secret revoked at once',
  });
  const client = await deps.clients.rotateSecret(current.clientId, await deps.hasher.hash(secret), expiresAtEpoch, audit);
  if (!client) throw noSuch('client', current.clientId);
  const rotated = { client, secret, ...(previousSecretExpiresAt ? { previousSecretExpiresAt } : {}) };
  // Behaviour ADMIN-24: after the write, and never failing the call: the new secret is only in its answer.
  await deps
    .notifySecretRotated({ client, actor, at: audit.at, ...(previousSecretExpiresAt ? { previousSecretExpiresAt } : {}) })
    .catch(() => {});
  return rotated;
}

/** What a client without a secret authenticates with instead, so the refusal says why. */
function noSecretReason(client: Client): string {
  if (client.type === 'public') return `client ${client.clientId} is a public client: it has no secret to rotate.`;
  return `client ${client.clientId} authenticates with private_key_jwt: it has no secret; replace its keys with PATCH jwks or jwks_uri instead.`;
}
