/** The admin audit log of this container (lambdas/adapters/dynamodb/audit-log.ts). */
import { auditEntryWriter, DynamoAuditLog } from '../adapters/dynamodb/audit-log';
import { DynamoServiceCounts, DynamoTokenStats } from '../adapters/dynamodb/token-stats';
import type { AuditLogStore } from '../core/admin/ports';
import type { ServiceCountsReader, TokenStatsReader } from '../core/admin/token-stats';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const getAuditLog = /* @__PURE__ */ perContainer(
  (): AuditLogStore => new DynamoAuditLog(getStorage().db, getStorage().tables.activity, getContainer().random),
);

/** The entries written on their own (core/admin/user-credentials.ts): the admin functions bundle no audit-log reader. */
export const getAuditEntryWriter = /* @__PURE__ */ perContainer(() =>
  auditEntryWriter(getStorage().db, getStorage().tables.activity, getContainer().random),
);

/** The hourly token counts the dashboard charts (lambdas/adapters/dynamodb/token-stats.ts). */
export const getTokenStats = /* @__PURE__ */ perContainer(
  (): TokenStatsReader => new DynamoTokenStats(getStorage().db, getStorage().tables.activity),
);

/** The overview's counters (lambdas/adapters/dynamodb/token-stats.ts). */
export const getServiceCounts = /* @__PURE__ */ perContainer(
  (): ServiceCountsReader => new DynamoServiceCounts(getStorage().db, getStorage().tables.activity),
);
