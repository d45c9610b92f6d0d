/** The admin audit log of this container (lambdas/adapters/dynamodb/audit-log.ts). */
import { auditEntryWriter, DynamoAuditLog } from '../adapters/dynamodb/audit-log';
import type { AuditLogStore } from '../core/admin/ports';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const getAuditLog = /* @__PURE__ */ perContainer(
  (): AuditLogStore => new DynamoAuditLog(getStorage().db, getStorage().tables.activity, getContainer().random),
);

/** The entries written on their own (core/admin/user-credentials.ts): the admin functions bundle no audit-log reader. */
export const getAuditEntryWriter = /* @__PURE__ */ perContainer(() =>
  auditEntryWriter(getStorage().db, getStorage().tables.activity, getContainer().random),
);
