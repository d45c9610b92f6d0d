/** The admin audit log of this container (lambdas/adapters/dynamodb/audit-log.ts). */
import { DynamoAuditLog } from '../adapters/dynamodb/audit-log';
import type { AuditLogStore } from '../core/admin/ports';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const getAuditLog = /* @__PURE__ */ perContainer(
  (): AuditLogStore => new DynamoAuditLog(getStorage().db, getStorage().tables.activity, getContainer().random),
);
