/** Behaviour KEY-5: a key is active, expired (time passed expiresAt) or revoked (soft delete). */
import type { ApiKey, ApiKeyStatus } from '../model';

export function keyStatus(key: Pick<ApiKey, 'revokedAt' | 'expiresAt'>, nowMs: number): ApiKeyStatus {
  if (key.revokedAt !== undefined) return 'revoked';
  if (key.expiresAt !== undefined && Date.parse(key.expiresAt) <= nowMs) return 'expired';
  return 'active';
}
