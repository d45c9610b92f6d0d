/**
 * The admin audit log (behaviour LOG-4, LOG-9) in the activity table. Each entry is stored in
 * the partition of what it is about (`AUDIT#<clientId>`, `AUDIT#USER#<userId>`, or `AUDIT#SITE`
 * for environments and scopes), and indexed by day in the activity table's gsi1
 * (`AUDITDAY#<yyyy-mm-dd>`), which only audit entries carry: token activity rows pay for no
 * index write. The whole log is read newest first, one day partition after another.
 */
import { randomUUID } from 'node:crypto';
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditLogQuery, AuditLogStore } from '../../core/admin/ports';
import { InvalidRequestError } from '../../core/errors';
import { newId } from '../../core/ids';
import { lifetimes } from '../../core/lifetimes';
import type { AdminAuditEntry, AuditType } from '../../core/model';
import type { RandomSource } from '../../core/ports';
import { type TransactItem, withoutKeys } from './items';

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const dayPartition = (day: string) => `AUDITDAY#${day}`;

function subjectPartition(entry: AdminAuditEntry): string {
  if (entry.clientId !== undefined) return `AUDIT#${entry.clientId}`;
  if (entry.userId !== undefined) return `AUDIT#USER#${entry.userId}`;
  return 'AUDIT#SITE';
}

/** The day index keys of an audit item (every writer of audit entries adds them: site-settings-store.ts too). */
export const auditDayKeys = (at: string, sk: string) => ({ gsi1pk: dayPartition(at.slice(0, 10)), gsi1sk: sk });

/** The item of an audit entry; `id` is random, so two entries of one millisecond never collide. */
export function auditLogItem(entry: AdminAuditEntry, id: string) {
  const sk = `${entry.at}#${id}`;
  return { pk: subjectPartition(entry), sk, ...auditDayKeys(entry.at, sk), ...entry, ttl: epoch(entry.at) + lifetimes.auditRetention };
}

/**
 * The audit entry as one item of its change's own transaction (behaviour LOG-9): the change and
 * its entry land together or not at all. The transaction carries a ClientRequestToken, so the
 * DynamoDB client's resend after a lost reply writes no second entry.
 */
export function auditPut(activityTable: string, entry: AdminAuditEntry): TransactItem {
  return { Put: { TableName: activityTable, Item: auditLogItem(entry, randomUUID()) } };
}

/** The activity table of a store that writes audit entries with its changes; a store built without one cannot. */
export function auditTableOf(activityTable: string | undefined): string {
  if (activityTable === undefined) throw new Error('this store was built without the activity table, so it cannot write an audit entry');
  return activityTable;
}

/** Where the previous page stopped: in which day, before which sort key. */
interface Position {
  readonly day: string;
  readonly before?: string;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function decodeCursor(cursor: string): Position {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { day?: unknown; before?: unknown };
    if (typeof parsed.day !== 'string' || !dayPattern.test(parsed.day)) throw new Error('day');
    if (parsed.before !== undefined && (typeof parsed.before !== 'string' || parsed.before.length > 200)) throw new Error('before');
    return { day: parsed.day, ...(parsed.before !== undefined ? { before: parsed.before } : {}) };
  } catch {
    throw new InvalidRequestError('cursor: not a cursor of this list.');
  }
}

const encodeCursor = (position: Position) => Buffer.from(JSON.stringify(position)).toString('base64url');

function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** At most this many queries per page, so a sparse filter over a long range answers in bounded time. */
const maxQueriesPerPage = 100;

/**
 * Writes one entry on its own, for the changes that cannot share their transaction
 * (docs/storage-schema.md). Apart from the reader below, so a function that only writes
 * bundles no paging code.
 */
export function auditEntryWriter(db: DynamoDBDocumentClient, table: string, random: RandomSource): Pick<AuditLogStore, 'record'> {
  return {
    async record(entry) {
      await db.send(new PutCommand({ TableName: table, Item: auditLogItem(entry, newId('', random)) }));
    },
  };
}

export class DynamoAuditLog implements AuditLogStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly random: RandomSource,
  ) {}

  record(entry: AdminAuditEntry): Promise<void> {
    return auditEntryWriter(this.db, this.table, this.random).record(entry);
  }

  /** Newest first, `from` and `to` inclusive; the cursor says which day and sort key to continue below. */
  async page(query: AuditLogQuery): Promise<{ items: AdminAuditEntry[]; next?: string }> {
    const firstDay = query.from.slice(0, 10);
    let position: Position = query.cursor ? decodeCursor(query.cursor) : { day: query.to.slice(0, 10) };
    const items: AdminAuditEntry[] = [];
    const upperBound = `${query.to}\uffff`;
    for (let queries = 0; position.day >= firstDay; queries++) {
      if (queries === maxQueriesPerPage) return { items, next: encodeCursor(position) };
      const upper = position.before ?? upperBound;
      const { Items = [], LastEvaluatedKey } = await this.db.send(
        new QueryCommand({
          TableName: this.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :day AND gsi1sk BETWEEN :from AND :upper',
          ...entryFilter(query),
          ExpressionAttributeValues: {
            ':day': dayPartition(position.day),
            ':from': query.from,
            ':upper': upper,
            ...typeValues(query.types),
            ...(query.actor ? { ':actor': query.actor } : {}),
            ...(query.subject ? { ':subject': query.subject } : {}),
          },
          ScanIndexForward: false,
          // BETWEEN is inclusive: a resumed read returns its `before` row again, so read one more.
          Limit: query.limit - items.length + (position.before ? 1 : 0),
        }),
      );
      for (const item of Items) {
        if (item.gsi1sk === position.before) continue;
        items.push(withoutKeys<AdminAuditEntry>(item));
        if (items.length === query.limit) return { items, next: encodeCursor({ day: position.day, before: String(item.gsi1sk) }) };
      }
      position = LastEvaluatedKey ? { day: position.day, before: String(LastEvaluatedKey.gsi1sk) } : { day: previousDay(position.day) };
    }
    return { items };
  }
}

/** The attributes an entry names its subject in (behaviour LOG-15). */
const subjectAttributes = ['clientId', 'keyId', 'userId', 'environmentId', 'scope', 'trustedIssuerId'] as const;

/** The type, actor and subject filters, applied by DynamoDB to the rows each query reads. */
function entryFilter(query: Pick<AuditLogQuery, 'types' | 'actor' | 'subject'>) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  if (query.types) {
    conditions.push(`#type IN (${query.types.map((_, i) => `:type${i}`).join(', ')})`);
    names['#type'] = 'type';
  }
  if (query.actor) {
    conditions.push('(#actor.userId = :actor OR #actor.clientId = :actor)');
    names['#actor'] = 'actor';
  }
  if (query.subject) {
    conditions.push(`(${subjectAttributes.map((name) => `#${name} = :subject`).join(' OR ')})`);
    for (const name of subjectAttributes) names[`#${name}`] = name;
  }
  if (conditions.length === 0) return {};
  return { FilterExpression: conditions.join(' AND '), ExpressionAttributeNames: names };
}

function typeValues(types: readonly AuditType[] | undefined): Record<string, string> {
  return Object.fromEntries((types ?? []).map((type, i) => [`:type${i}`, type]));
}
