import { DeleteCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { InvalidRequestError } from '../../core/errors';
import type { ListRead, Page } from '../../core/admin/ports';
import { pageOf } from '../../core/admin/filtered-pages';
import { live, withoutKeys } from './items';

/** The domain's page shapes (lambdas/core/admin/ports.ts), re-exported for the repositories. */
export type { ListRead, Page };

/** An opaque cursor: the exclusive start key, base64url-encoded JSON. */
const encodeCursor = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key)).toString('base64url');

/**
 * The cursor right after an item (behaviour ADMIN-21): its key attributes, as DynamoDB would
 * give them as LastEvaluatedKey had the read stopped there.
 */
const cursorAfter = (item: Record<string, unknown>, keyNames: readonly string[]): string =>
  encodeCursor(Object.fromEntries(keyNames.map((name) => [name, item[name]])));

const indexKeyNames = ['gsi1pk', 'gsi1sk', 'pk', 'sk'] as const;
const tableKeyNames = ['pk', 'sk'] as const;

/** Every item of one gsi1 partition (a list). */
export const gsi1Query = (table: string, gsi1pk: string): QueryCommandInput => ({
  TableName: table,
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :pk',
  ExpressionAttributeValues: { ':pk': gsi1pk },
});

/** The items of one partition whose sort key starts with `skPrefix` (the entries a user's partition holds), strongly consistent unless said. */
export const prefixQuery = (table: string, pk: string, skPrefix: string, consistent = true): QueryCommandInput => ({
  TableName: table,
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
  ...(consistent ? { ConsistentRead: true } : {}),
});

/** One page of a gsi1 partition; see queryIndexRead. */
export async function queryIndexPage<T>(
  db: DynamoDBDocumentClient,
  table: string,
  gsi1pk: string,
  limit: number,
  cursor?: string,
  nowEpoch?: number,
  newestFirst = false,
): Promise<Page<T>> {
  return pageOf(await queryIndexRead<T>(db, table, gsi1pk, limit, cursor, nowEpoch, newestFirst));
}

/**
 * One read of a gsi1 partition, each item with the cursor right after it. The cursor is a key,
 * base64url-encoded; one that does not belong to this partition is refused as invalid_request
 * instead of reaching DynamoDB (whose ValidationException would otherwise surface as a 500).
 */
export async function queryIndexRead<T>(
  db: DynamoDBDocumentClient,
  table: string,
  gsi1pk: string,
  limit: number,
  cursor?: string,
  /** When given, items whose `ttl` has passed are left out (TTL deletes late). */
  nowEpoch?: number,
  /** Descending gsi1sk: a list sorted by time (`byTime`) comes newest first. */
  newestFirst = false,
): Promise<ListRead<T>> {
  const start = decodeCursor(cursor, indexKeyNames.join(','), (key) => key.gsi1pk === gsi1pk);
  const order = newestFirst ? { ScanIndexForward: false } : {};
  const page = await db.send(new QueryCommand({ ...gsi1Query(table, gsi1pk), ...order, Limit: limit, ExclusiveStartKey: start }));
  const last = page.LastEvaluatedKey;
  const items = (page.Items ?? []).filter((item) => nowEpoch === undefined || live(item, nowEpoch) !== undefined);
  return {
    entries: items.map((item) => ({ item: withoutKeys<T>(item), after: cursorAfter(item, indexKeyNames) })),
    ...(last ? { next: encodeCursor(last) } : {}),
  };
}

/** The exclusive start key of an opaque cursor; one with other keys or from another list is invalid_request. */
function decodeCursor(
  cursor: string | undefined,
  keyNames: string,
  belongs: (key: Record<string, unknown>) => boolean,
): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  let start: Record<string, unknown> | undefined;
  try {
    start = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    start = undefined;
  }
  const keys = start && typeof start === 'object' ? Object.keys(start).sort().join(',') : '';
  // DynamoDB refuses empty and oversized key values with a ValidationException (a 500 here).
  const usable = ([name, v]: [string, unknown]) =>
    typeof v === 'string' && v.length > 0 && Buffer.byteLength(v, 'utf8') <= (name.endsWith('pk') ? 2048 : 1024);
  if (!start || keys !== keyNames || !Object.entries(start).every(usable) || !belongs(start)) {
    throw new InvalidRequestError('The cursor is not valid for this list.');
  }
  return start;
}

/**
 * One read of the base table: items of partition `pk` whose sort key begins with `skPrefix`,
 * raw (with their keys), each with the cursor right after it, and the cursor of the next read.
 */
export async function queryPartitionRead(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  skPrefix: string,
  limit: number,
  cursor?: string,
  /** Descending sort key: entries sorted by time (`byTime`) come newest first. */
  newestFirst = false,
): Promise<ListRead<Record<string, unknown>>> {
  const start = decodeCursor(cursor, tableKeyNames.join(','), (key) => key.pk === pk && String(key.sk).startsWith(skPrefix));
  const order = newestFirst ? { ScanIndexForward: false } : {};
  const page = await db.send(
    new QueryCommand({ ...prefixQuery(table, pk, skPrefix, false), ...order, Limit: limit, ExclusiveStartKey: start }),
  );
  const last = page.LastEvaluatedKey;
  return {
    entries: (page.Items ?? []).map((item) => ({ item, after: cursorAfter(item, tableKeyNames) })),
    ...(last ? { next: encodeCursor(last) } : {}),
  };
}

/** Every page of a query, one array of items at a time (a single Query stops at 1 MB). */
export async function* queryPages(db: DynamoDBDocumentClient, input: QueryCommandInput): AsyncGenerator<Record<string, unknown>[]> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}

export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for await (const page of queryPages(db, input)) items.push(...page);
  return items;
}

/** Deletes every item the query finds (by its pk/sk); returns how many. */
export async function deleteQueried(db: DynamoDBDocumentClient, input: QueryCommandInput): Promise<number> {
  let deleted = 0;
  for await (const page of queryPages(db, input)) {
    await Promise.all(page.map((item) => db.send(new DeleteCommand({ TableName: input.TableName, Key: { pk: item.pk, sk: item.sk } }))));
    deleted += page.length;
  }
  return deleted;
}
