/**
 * The stream side of the token statistics (docs/storage-schema.md, "Token statistics"): which
 * stream records the rollup reads, the records they hold, and the counters' deltas written back as
 * `ADD`s to the `STATS#` items of the activity table (behaviour LOG-10, LOG-11, LOG-12).
 */
import { createHash } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { CountedRecord, CounterDelta, RecordChange, StatisticsCounter } from '../../core/admin/statistics-rollup';
import type { ActivityRow, RegistrationType } from '../../core/model';
import { backoff } from '../../core/retry';
import { isPending } from './api-key-items';
import { transactRetryingConflicts } from './conditional-writes';
import { isTransactionConflict } from './items';
import * as partitions from './keys/partitions';
import { apiKeyExpiryDayKey, serviceCounterAttributes, serviceCountsKey, tokenStatsAttribute, tokenStatsHourKey } from './token-stats';

/** The record an image holds, if the rollup counts it: the key shapes of keys/counted-records.ts, which the stream filters let through. */
export function countedRecordOf(item: Record<string, unknown> | undefined): CountedRecord | undefined {
  if (!item) return undefined;
  const pk = String(item.pk ?? '');
  const sk = String(item.sk ?? '');
  if (pk.startsWith('ACTIVITY#')) {
    return {
      kind: 'token-activity',
      row: {
        requestType: item.requestType as ActivityRow['requestType'],
        success: item.success === true,
        ...(typeof item.clientId === 'string' ? { clientId: item.clientId } : {}),
        startedAt: String(item.startedAt),
      },
    };
  }
  if (pk.startsWith('CLIENT#') && sk === 'CLIENT') return { kind: 'client', registrationType: item.registrationType as RegistrationType };
  if (pk.startsWith('USER#') && sk === 'USER') return { kind: 'user' };
  if (pk.startsWith('APIKEY#') && sk === 'APIKEY') {
    return {
      kind: 'api-key',
      key: {
        pending: isPending(item),
        ...(typeof item.expiresAt === 'string' ? { expiresAt: item.expiresAt } : {}),
        ...(typeof item.revokedAt === 'string' ? { revokedAt: item.revokedAt } : {}),
      },
    };
  }
  return undefined;
}

const imageOf = (image: Record<string, StreamAttributeValue> | undefined) =>
  // The event's images are DynamoDB JSON; aws-lambda's type and the SDK's differ in name only.
  image ? unmarshall(image as Parameters<typeof unmarshall>[0]) : undefined;

/** The changes of a stream batch, in the rollup's terms. */
export function changesOf(records: readonly DynamoDBRecord[]): RecordChange[] {
  return records.map((record) => {
    const before = countedRecordOf(imageOf(record.dynamodb?.OldImage));
    const after = countedRecordOf(imageOf(record.dynamodb?.NewImage));
    return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
  });
}

/**
 * How long an hour's counts stay (behaviour LOG-12): 35 days, five times the longest window the
 * dashboard shows (7 days), with room for a month's comparison; the rows themselves stay 90 days.
 */
export const hourlyStatsRetentionSeconds = 35 * 24 * 3600;
/** A key-expiry day is read only until it has passed; two days' grace keeps a late rollup's write from recreating it for long. */
export const expiryDayTtl = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 2 * 24 * 3600;

type Key = { readonly pk: string; readonly sk: string };

function placeOf(counter: StatisticsCounter): { key: Key; attribute: string; ttl?: number } {
  switch (counter.kind) {
    case 'tokens':
      return {
        key: { pk: partitions.tokenStats(counter.scope), sk: tokenStatsHourKey(counter.hour) },
        attribute: tokenStatsAttribute(counter.requestType, counter.outcome),
        ttl: Math.floor(Date.parse(`${counter.hour}:00:00Z`) / 1000) + hourlyStatsRetentionSeconds,
      };
    case 'clients':
      return {
        key: serviceCountsKey,
        attribute:
          counter.registrationType === 'dynamic' ? serviceCounterAttributes.dynamicClients : serviceCounterAttributes.staticClients,
      };
    case 'users':
      return { key: serviceCountsKey, attribute: serviceCounterAttributes.users };
    case 'api-keys':
      return counter.expiryDay === undefined
        ? { key: serviceCountsKey, attribute: serviceCounterAttributes.apiKeysWithoutExpiry }
        : {
            key: apiKeyExpiryDayKey(counter.expiryDay),
            attribute: serviceCounterAttributes.apiKeysOfDay,
            ttl: expiryDayTtl(counter.expiryDay),
          };
  }
}

export interface ItemUpdate {
  readonly key: Key;
  readonly add: Readonly<Record<string, number>>;
  readonly ttl?: number;
}

/** The deltas grouped per item, in a stable order: the same batch always makes the same transactions. */
export function itemUpdatesOf(deltas: readonly CounterDelta[]): ItemUpdate[] {
  const items = new Map<string, { key: Key; add: Record<string, number>; ttl?: number }>();
  for (const delta of deltas) {
    const place = placeOf(delta.counter);
    const id = `${place.key.pk}\n${place.key.sk}`;
    const item = items.get(id) ?? { key: place.key, add: {}, ...(place.ttl !== undefined ? { ttl: place.ttl } : {}) };
    item.add[place.attribute] = (item.add[place.attribute] ?? 0) + delta.by;
    items.set(id, item);
  }
  return [...items.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

/** DynamoDB's limit of items per transaction. */
export const transactionItemLimit = 100;

/**
 * The idempotency token of one transaction of a batch (behaviour LOG-12): from the batch's event
 * ids and the transaction's place in it, so Lambda's retry of the same batch within DynamoDB's
 * 10-minute idempotency window repeats tokens DynamoDB has seen and does not count that batch twice.
 */
export function requestTokenOf(eventIds: readonly string[], chunk: number): string {
  return createHash('sha256')
    .update(`${eventIds.join('\n')}\n#${chunk}`)
    .digest('base64url')
    .slice(0, 36);
}

function updateOf(table: string, update: ItemUpdate) {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const adds = Object.entries(update.add).map(([attribute, by], i) => {
    names[`#c${i}`] = attribute;
    values[`:c${i}`] = by;
    return `#c${i} :c${i}`;
  });
  if (update.ttl !== undefined) {
    names['#ttl'] = 'ttl';
    values[':ttl'] = update.ttl;
  }
  return {
    Update: {
      TableName: table,
      Key: update.key,
      UpdateExpression: `ADD ${adds.join(', ')}${update.ttl !== undefined ? ' SET #ttl = :ttl' : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Tries of one transaction while concurrent ones cancel it. Every shard's invocation adds to the
 * same `STATS#SERVICE` hour, and the SDK does not retry a cancelled transaction: without these a
 * conflict would fail the whole batch (LOG-12). With `backoff(20)` the 8 tries wait about 5 s in
 * all (at most about 10), well within the function's minute.
 */
export const conflictRetry = { attempts: 8, delayMs: backoff(20) } as const;

/** Writes a batch's updates, at most 100 items per transaction, each with its batch-derived token. */
export async function writeItemUpdates(
  db: DynamoDBDocumentClient,
  table: string,
  updates: readonly ItemUpdate[],
  eventIds: readonly string[],
): Promise<void> {
  for (let start = 0, chunk = 0; start < updates.length; start += transactionItemLimit, chunk++) {
    // The same token on every try: a try whose reply was lost after it landed is then answered as
    // done, never applied again (behaviour LOG-12).
    await transactRetryingConflicts(
      db,
      updates.slice(start, start + transactionItemLimit).map((update) => updateOf(table, update)),
      (error) => {
        throw isTransactionConflict(error)
          ? new Error('DynamoDB kept cancelling the statistics update for conflicting transactions', { cause: error })
          : error;
      },
      { ...conflictRetry, requestToken: requestTokenOf(eventIds, chunk) },
    );
  }
}
