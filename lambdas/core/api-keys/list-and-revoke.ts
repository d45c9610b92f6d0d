/**
 * Listing (newest first, behaviour ADMIN-23) and revoking a client's keys (behaviour KEYM-4, KEYM-6, KEYM-7). A self-service caller sees
 * and revokes only its own keys; another user's key is 404, never 403, so key ids of
 * other users cannot be probed.
 */
import { NotFoundError } from '../errors';
import { isoNow, type Page } from '../admin/ports';
import { filteredPage, pageOf } from '../admin/filtered-pages';
import type { ApiKey, ApiKeyStatus } from '../model';
import { keyStatus } from './status';
import { requireClient } from './create';
import { keyIdPattern } from './format';
import { actorOf, type KeyManager } from './caller';
import type { ApiKeyAdminDependencies } from './ports';

export async function listApiKeys(
  deps: ApiKeyAdminDependencies,
  manager: KeyManager,
  clientId: string,
  limit: number,
  cursor?: string,
  /** Behaviour ADMIN-23: only the keys in this state now, read in bounded pages. */
  status?: ApiKeyStatus,
): Promise<Page<ApiKey>> {
  const read =
    manager.kind === 'self-service'
      ? (n: number, c?: string) => deps.keys.listByClientAndUser(clientId, manager.userId, n, c)
      : (n: number, c?: string) => deps.keys.listByClient(clientId, n, c);
  if (manager.kind !== 'self-service') await requireClient(deps, clientId);
  if (status === undefined) return pageOf(await read(limit, cursor));
  const now = deps.clock.now();
  return filteredPage(read, (key) => keyStatus(key, now) === status, { limit, cursor });
}

/**
 * Revokes the key; effective on the next exchange, tokens already minted run their hour.
 * Revoking again changes nothing: the original revokedAt stays and no second audit entry is written.
 */
export async function revokeApiKey(
  deps: ApiKeyAdminDependencies,
  manager: KeyManager,
  { clientId, keyId }: { readonly clientId: string; readonly keyId: string },
): Promise<ApiKey> {
  const notFound = () => new NotFoundError(`No API key "${keyId.slice(0, 64)}" for client "${clientId}".`);
  if (!keyIdPattern.test(keyId)) throw notFound();
  const key = await deps.keys.get(keyId);
  if (!key || key.clientId !== clientId) throw notFound();
  if (manager.kind === 'self-service' && key.userId !== manager.userId) throw notFound();
  if (key.revokedAt !== undefined) return key;
  const revokedAt = isoNow(deps.clock);
  const audit = { type: 'api_key.revoke', clientId, keyId, userId: key.userId, actor: actorOf(manager), at: revokedAt } as const;
  if (await deps.keys.revoke(key, revokedAt, audit)) return { ...key, revokedAt };
  // A concurrent revocation won: report its timestamp.
  const again = await deps.keys.get(keyId);
  if (!again) throw notFound();
  return again;
}

/** Behaviour DASH-18: one user's keys across clients, newest first, at most `limit`, for an admin's page of that user. */
export async function listKeysOfUser(
  deps: Pick<ApiKeyAdminDependencies, 'keys'>,
  userId: string,
  limit: number,
): Promise<{ readonly items: readonly ApiKey[]; readonly more: boolean }> {
  return deps.keys.listOfUser(userId, limit);
}
