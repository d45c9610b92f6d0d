/**
 * Token activity rows spread over shards: every token request of a client writes
 * one row, and one partition key takes about 1,000 writes a second, so a single busy client
 * would be throttled there whatever the table's capacity. Each row goes to one of
 * `activityShardCount` partitions, chosen from its attempt id (so the failure row that replaces
 * a half-written success row of the same attempt lands on the same item); readers query
 * every shard and merge by time. docs/storage-schema.md gives the arithmetic.
 */
import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidRequestError } from '../../core/errors';
import * as partitions from './keys/partitions';

/** 16 × ~1,000 writes/s per partition: room for 10,000 token requests a second from one client. */
export const activityShardCount = 16;

/** The shard of an attempt: stable for its id, spread evenly across the shards. */
export function activityShard(attemptId: string): number {
  return createHash('sha256').update(attemptId).digest()[0]! % activityShardCount;
}

export interface ActivityQuery {
  /** ISO times bounding the attempt start (inclusive). */
  readonly from?: string;
  readonly to?: string;
  readonly limit: number;
  /** From a previous page's `next`. */
  readonly cursor?: string;
}

/** Where each partition's reading stopped: the last sort key returned from it, or done. */
type Positions = Record<string, string | null>;

function decodeCursor(cursor: string | undefined, partitionKeys: readonly string[]): Positions {
  if (!cursor) return {};
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    const positions = parsed as Record<string, unknown>;
    for (const [pk, sk] of Object.entries(positions)) {
      if (!partitionKeys.includes(pk) || (sk !== null && (typeof sk !== 'string' || sk.length === 0 || sk.length > 200)))
        throw new Error('bad entry');
    }
    return positions as Positions;
  } catch {
    throw new InvalidRequestError('cursor: not a cursor of this list.');
  }
}

/**
 * One page of a client's activity rows newest first (behaviour LOG-16), merged across the
 * shards: each partition is read downwards from where the previous page stopped in it, at most
 * `limit` rows each, and the `limit` latest rows of the union form the page. The cursor records,
 * per partition, the last sort key taken (or null once it is exhausted), so no row is skipped or
 * repeated.
 */
export async function queryActivityPage(
  db: DynamoDBDocumentClient,
  table: string,
  clientId: string,
  query: ActivityQuery,
): Promise<{ items: Record<string, unknown>[]; next?: string }> {
  const partitionKeys = Array.from({ length: activityShardCount }, (_, shard) => partitions.activityShard(clientId, shard));
  const positions = decodeCursor(query.cursor, partitionKeys);
  // Sort keys begin with the attempt's ISO start time: '0000' sorts before every one (DynamoDB refuses an empty bound).
  const from = query.from ?? '0000';
  const to = `${query.to ?? '9999'}\uffff`;
  if (from > to) throw new InvalidRequestError('from: must not be later than to.');
  const reads = await Promise.all(
    partitionKeys.map(async (pk) => {
      const before = positions[pk];
      if (before === null) return { pk, items: [] as Record<string, unknown>[], more: false };
      const upper = before !== undefined && before <= to ? before : undefined;
      // A cursor from a wider range (or a made-up one) below this range's start: nothing left here.
      if (upper !== undefined && upper < from) return { pk, items: [] as Record<string, unknown>[], more: false };
      const { Items = [], LastEvaluatedKey } = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': upper ?? to },
          ScanIndexForward: false,
          // A resumed partition repeats its last row (BETWEEN is inclusive): read one more.
          Limit: query.limit + (upper ? 1 : 0),
        }),
      );
      const items = upper ? Items.filter((item) => String(item.sk) < upper) : Items;
      return { pk, items, more: LastEvaluatedKey !== undefined };
    }),
  );
  const merged = reads
    .flatMap((read) => read.items.map((item) => ({ pk: read.pk, item })))
    .sort((a, b) => (String(a.item.sk) > String(b.item.sk) ? -1 : String(a.item.sk) < String(b.item.sk) ? 1 : 0));
  const page = merged.slice(0, query.limit);
  const nextPositions: Positions = { ...positions };
  for (const read of reads) {
    const taken = page.filter((entry) => entry.pk === read.pk);
    const exhausted = !read.more && taken.length === read.items.length;
    if (exhausted) nextPositions[read.pk] = null;
    else if (taken.length > 0) nextPositions[read.pk] = String(taken.at(-1)!.item.sk);
  }
  const anyLeft = partitionKeys.some((pk) => nextPositions[pk] !== null);
  return {
    items: page.map((entry) => entry.item),
    ...(anyLeft && merged.length > 0 ? { next: Buffer.from(JSON.stringify(nextPositions)).toString('base64url') } : {}),
  };
}
