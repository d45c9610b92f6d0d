/**
 * The service counters counted again from the lists (behaviour LOG-13): for a table that held
 * clients, users and keys before the rollup was deployed, or counters that drifted. Reads the gsi1
 * lists (clients per registration type, users, each client's keys), so it costs a read of every
 * listed record: an operator's run, never a page view's.
 */
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { rollUp, type RecordChange } from '../../core/admin/statistics-rollup';
import { countedRecordOf, expiryDayTtl, itemUpdatesOf } from './statistics-stream';
import * as partitions from './keys/partitions';
import { apiKeyExpiryDayKey, serviceCounterAttributes, serviceCountsKey } from './token-stats';

async function listed(
  db: DynamoDBDocumentClient,
  table: string,
  gsi1pk: string,
  projection: readonly string[],
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1pk },
        ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

async function expiryDaysStored(db: DynamoDBDocumentClient, table: string): Promise<string[]> {
  const days: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partitions.apiKeyExpiryCalendar },
        ProjectionExpression: 'sk',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) days.push(String(item.sk));
    start = page.LastEvaluatedKey;
  } while (start);
  return days;
}

/**
 * Replaces the counters (`STATS#COUNTS`, every `STATS#KEYEXPIRY` day) with what the lists hold now.
 * Not one transaction with the lists: a change the stream rolls up while this runs may be counted
 * twice or missed, so it is run when the service is quiet, and may be run again.
 */
export async function recountServiceCounters(
  db: DynamoDBDocumentClient,
  tables: { readonly main: string; readonly activity: string },
): Promise<{ clients: number; users: number; apiKeys: number }> {
  const recordKeys = ['pk', 'sk'];
  const clients = [
    ...(await listed(db, tables.main, partitions.clients('static'), [...recordKeys, 'registrationType', 'clientId'])),
    ...(await listed(db, tables.main, partitions.clients('dynamic'), [...recordKeys, 'registrationType', 'clientId'])),
  ];
  const users = await listed(db, tables.main, partitions.users, recordKeys);
  const keys: Record<string, unknown>[] = [];
  for (const client of clients) {
    keys.push(
      ...(await listed(db, tables.main, partitions.keysOfClient(String(client.clientId)), [
        ...recordKeys,
        'pending',
        'expiresAt',
        'revokedAt',
      ])),
    );
  }
  // Every listed record as if inserted: the rollup's deltas from nothing are the counts.
  const changes: RecordChange[] = [...clients, ...users, ...keys].flatMap((item) => {
    const after = countedRecordOf(item);
    return after ? [{ after }] : [];
  });
  const deltas = rollUp(changes);
  const counts = itemUpdatesOf(deltas);
  const countsKeyId = JSON.stringify(serviceCountsKey);
  const countsItem = counts.find((update) => JSON.stringify(update.key) === countsKeyId);
  await db.send(new PutCommand({ TableName: tables.activity, Item: { ...serviceCountsKey, ...countsItem?.add } }));
  const days = counts.filter((update) => update.key.pk === partitions.apiKeyExpiryCalendar);
  const counted = new Set(days.map((day) => day.key.sk));
  for (const day of days) {
    await db.send(
      new PutCommand({ TableName: tables.activity, Item: { ...day.key, ...day.add, ...(day.ttl !== undefined ? { ttl: day.ttl } : {}) } }),
    );
  }
  // A stored day the lists no longer hold a key for counts nothing now.
  for (const sk of await expiryDaysStored(db, tables.activity)) {
    if (counted.has(sk)) continue;
    const day = sk.slice('DAY#'.length);
    await db.send(
      new PutCommand({
        TableName: tables.activity,
        Item: { ...apiKeyExpiryDayKey(day), [serviceCounterAttributes.apiKeysOfDay]: 0, ttl: expiryDayTtl(day) },
      }),
    );
  }
  const apiKeys = deltas.reduce((sum, delta) => sum + (delta.counter.kind === 'api-keys' ? delta.by : 0), 0);
  return { clients: clients.length, users: users.length, apiKeys };
}
