/** The admin audit log of this container (lambdas/adapters/dynamodb/audit-log.ts), and the changes' recorder. */
import { DynamoAuditLog } from '../adapters/dynamodb/audit-log';
import { type AuditLogStore, recordChange } from '../core/admin/audit';
import type { AdminAuditEntry } from '../core/model';
import type { AdminCaller } from '../http/admin-auth';
import { adminActorOf } from '../http/admin-caller';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const getAuditLog = /* @__PURE__ */ perContainer(
  (): AuditLogStore => new DynamoAuditLog(getStorage().db, getStorage().tables.activity, getContainer().random),
);

/**
 * Records an admin API change with its caller as actor (behaviour LOG-9): the same entry the
 * dashboard writes for the same change (lambdas/presentation/dashboard/context.ts `audit`).
 */
export function recordAdminChange(caller: AdminCaller, change: Omit<AdminAuditEntry, 'actor' | 'at'>): Promise<void> {
  return recordChange({ audit: getAuditLog(), clock: getContainer().clock }, adminActorOf(caller), change);
}
