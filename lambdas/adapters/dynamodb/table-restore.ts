/**
 * Brings a restored table's items into the stack's table (docs/deployment.md, "Restoring from a
 * backup"; behaviour OPS-6). DynamoDB and AWS Backup restore into a new table, which the stack
 * does not know; the stack's tables are retained, deletion-protected and named by
 * CloudFormation, so the restored items are copied into them instead of swapping tables.
 *
 * - `replace` (the main table): the stack's table ends up holding exactly the restored items:
 *   every restored item is written, then every item the restored table lacks is deleted (what
 *   was created after the restore point: a user registered since, or a client an attacker
 *   added). Run it with the API stopped, or a write made meanwhile may be deleted or overwritten.
 * - `merge` (the activity table, an append-only log): the restored items are written, nothing is
 *   deleted, so the entries written since the restore point stay.
 *
 * Items are written as they were, key attributes and TTL included; writes are idempotent, so a
 * run that stopped part-way is simply run again. Memory: the restored table's keys, one string
 * each (about 100 MB for a million items), in `replace` mode only.
 */
import { BatchWriteCommand, type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';

export type RestoreMode = 'replace' | 'merge';

export interface TableRestoreOptions {
  /** The table DynamoDB or AWS Backup restored into. */
  readonly from: string;
  /** The stack's table (stack output MainTableName or ActivityTableName). */
  readonly to: string;
  readonly mode: RestoreMode;
  /** Key attribute names of both tables (table-definitions.ts: `pk`, `sk`). */
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Parallel scan segments. @default 4 */
  readonly segments?: number;
  /** Progress lines (counts only, never an item). */
  readonly progress?: (line: string) => void;
  /** Waits between retries of unprocessed batch items; injectable so tests need not wait. */
  readonly pause?: (ms: number) => Promise<void>;
}

export interface TableRestoreResult {
  readonly written: number;
  readonly deleted: number;
}

type Item = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

const batchSize = 25;
const maxRounds = 10;

export async function restoreTableItems(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  options: TableRestoreOptions,
): Promise<TableRestoreResult> {
  const { partitionKey, sortKey, progress = () => undefined, pause = wait } = options;
  const keyOf = (item: Item) => JSON.stringify([item[partitionKey], item[sortKey]]);
  const restoredKeys = new Set<string>();

  let written = 0;
  await scanAll(db, options.from, options.segments ?? 4, undefined, async (items) => {
    await writeAll(
      db,
      options.to,
      items.map((Item) => ({ PutRequest: { Item } })),
      pause,
    );
    if (options.mode === 'replace') for (const item of items) restoredKeys.add(keyOf(item));
    written += items.length;
    progress(`${written} items written to ${options.to}`);
  });

  let deleted = 0;
  if (options.mode === 'replace') {
    await scanAll(db, options.to, options.segments ?? 4, [partitionKey, sortKey], async (keys) => {
      const extra = keys.filter((key) => !restoredKeys.has(keyOf(key)));
      await writeAll(
        db,
        options.to,
        extra.map((Key) => ({ DeleteRequest: { Key } })),
        pause,
      );
      deleted += extra.length;
    });
    progress(`${deleted} items the restored table lacks deleted from ${options.to}`);
  }
  return { written, deleted };
}

async function scanAll(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  table: string,
  segments: number,
  attributes: readonly string[] | undefined,
  onPage: (items: Item[]) => Promise<void>,
): Promise<void> {
  const names = attributes ? Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])) : undefined;
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let start: Item | undefined;
      do {
        const page = await db.send(
          new ScanCommand({
            TableName: table,
            Segment: segment,
            TotalSegments: segments,
            ConsistentRead: true,
            ExclusiveStartKey: start,
            ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}),
          }),
        );
        await onPage((page.Items ?? []) as Item[]);
        start = page.LastEvaluatedKey as Item | undefined;
      } while (start);
    }),
  );
}

async function writeAll(
  db: Pick<DynamoDBDocumentClient, 'send'>,
  table: string,
  requests: WriteRequest[],
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < requests.length; start += batchSize) {
    let pending = requests.slice(start, start + batchSize);
    for (let round = 0; pending.length > 0; round++) {
      if (round === maxRounds)
        throw new Error(`${pending.length} writes to ${table} still unprocessed after ${maxRounds} rounds; run again`);
      if (round > 0) await pause(Math.min(100 * 2 ** round, 5000));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
