/**
 * Listing and revoking a client's keys (behaviour KEYM-4, KEYM-6, KEYM-7). A self-service caller sees
 * and revokes only its own keys; another user's key is 404, never 403, so key ids of
 * other users cannot be probed.
 */
import { NotFoundError } from '../errors';
import { isoNow, type Page } from '../admin/ports';
import type { ApiKey } from '../model';
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
): Promise<Page<ApiKey>> {
  if (manager.kind === 'self-service') return deps.keys.listByClientAndUser(clientId, manager.userId, limit, cursor);
  await requireClient(deps, clientId);
  return deps.keys.listByClient(clientId, limit, cursor);
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
