/**
 * The admin audit log (behaviour LOG-4, LOG-9): reading it, building the entry of an admin change
 * (its store writes it in the change's own transaction), and recording the few changes that
 * cannot share a transaction with their entry (docs/storage-schema.md lists them).
 */
import { InvalidRequestError } from '../errors';
import { type AdminAuditEntry, type ApiKeyCreator, auditTypes, type AuditType } from '../model';
import type { Clock } from '../ports';
import type { AuditLogQuery, AuditLogStore } from './ports';

/** The longest range one listing may span (the log keeps 365 days; one day partition is one query). */
export const maxAuditRangeDays = 92;
const defaultAuditRangeDays = 7;
const dayMs = 86_400_000;

/**
 * The types a `type` filter names: one type (`api_key.revoke`) or a family (`api_key`, `user`),
 * so an admin can ask for every change of clients at once.
 */
export function auditTypesMatching(filter: string): AuditType[] {
  const exact = auditTypes.find((type) => type === filter);
  if (exact) return [exact];
  const family = auditTypes.filter((type) => type.startsWith(`${filter}.`));
  if (family.length === 0)
    throw new InvalidRequestError(`type: not an audit entry type; one of ${auditTypes.join(', ')} or a family such as "user".`);
  return family;
}

function isoTime(name: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw new InvalidRequestError(`${name}: must be an ISO 8601 time, e.g. 2030-01-01T00:00:00Z.`);
  return new Date(ms).toISOString();
}

export interface AuditLogFilter {
  readonly from?: string;
  readonly to?: string;
  readonly type?: string;
  readonly actor?: string;
  readonly subject?: string;
}

/** The filter as the store takes it: `to` defaults to now, `from` to 7 days before `to`; at most 92 days. */
export function auditLogQuery(clock: Clock, filter: AuditLogFilter, page: { limit: number; cursor?: string }): AuditLogQuery {
  const to = filter.to ? isoTime('to', filter.to) : new Date(clock.now()).toISOString();
  const from = filter.from ? isoTime('from', filter.from) : new Date(Date.parse(to) - defaultAuditRangeDays * dayMs).toISOString();
  if (from > to) throw new InvalidRequestError('from: must not be later than to.');
  if (Date.parse(to) - Date.parse(from) > maxAuditRangeDays * dayMs) {
    throw new InvalidRequestError(`from: the range may span at most ${maxAuditRangeDays} days.`);
  }
  return {
    from,
    to,
    ...(filter.type ? { types: auditTypesMatching(filter.type) } : {}),
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.subject ? { subject: filter.subject } : {}),
    limit: page.limit,
    ...(page.cursor ? { cursor: page.cursor } : {}),
  };
}

export function listAuditLog(
  deps: { audit: AuditLogStore; clock: Clock },
  filter: AuditLogFilter,
  page: { limit: number; cursor?: string },
) {
  return deps.audit.page(auditLogQuery(deps.clock, filter, page));
}

/** The admin caller who made a change, as the audit log names them. */
export type AdminActor = Exclude<ApiKeyCreator, { kind: 'user' }>;

/** The audit entry of an admin change, stamped now; its store writes it in the change's own transaction (behaviour LOG-9). */
export function auditEntryOf(deps: { clock: Clock }, actor: AdminActor, change: Omit<AdminAuditEntry, 'actor' | 'at'>): AdminAuditEntry {
  return { ...change, actor, at: new Date(deps.clock.now()).toISOString() };
}

/**
 * Records a change its use case has just made, for the few changes that cannot share a DynamoDB
 * transaction with their entry (docs/storage-schema.md lists them and why): the call answers
 * only once the entry is written, and a failure answers 503, so the admin's retry (each of
 * these changes is idempotent) writes it. Every other change passes its entry to the store
 * that writes the change (`auditEntryOf`).
 */
export async function recordChange(
  deps: { auditLog: Pick<AuditLogStore, 'record'>; clock: Clock },
  actor: AdminActor,
  change: Omit<AdminAuditEntry, 'actor' | 'at'>,
): Promise<void> {
  await deps.auditLog.record(auditEntryOf(deps, actor, change));
}
