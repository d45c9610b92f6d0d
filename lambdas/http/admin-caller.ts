/**
 * Maps an admin API caller to the manager of a client's keys (behaviour KEYM-1): admin clients and
 * admin users manage any key; a self-service caller (requireAdmin with the path's client)
 * manages only its own user's keys.
 */
import type { KeyManager } from '../core/api-keys/caller';
import type { ApiKeyCreator } from '../core/model';
import { parseScope } from '../core/scope';
import type { AdminCaller } from './admin-auth';

export function keyManagerOf(caller: AdminCaller): KeyManager {
  switch (caller.kind) {
    case 'admin-client':
      return { kind: 'admin', actor: { kind: 'admin-client', clientId: caller.clientId } };
    case 'admin-user':
      return {
        kind: 'admin',
        actor: { kind: 'admin-user', userId: caller.userId },
        ...(caller.claims.amr ? { amr: caller.claims.amr } : {}),
        generation: caller.keyGeneration,
      };
    case 'self-service':
      return {
        kind: 'self-service',
        userId: caller.userId,
        scopes: parseScope(caller.claims.scope),
        ...(caller.claims.amr ? { amr: caller.claims.amr } : {}),
        generation: caller.keyGeneration,
      };
  }
}

/** The audit actor of an admin caller (requireAdmin without self-service never returns another kind). */
export function adminActorOf(caller: AdminCaller): Exclude<ApiKeyCreator, { kind: 'user' }> {
  const manager = keyManagerOf(caller);
  if (manager.kind !== 'admin') throw new Error('an admin route was reached by a self-service caller');
  return manager.actor;
}
