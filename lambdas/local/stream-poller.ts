/**
 * The local stand-in for the statistics rollup's event source mappings (lib/statistics-rollup.ts):
 * reads DynamoDB Local's streams of the main and activity tables about once a second and hands the
 * records, in the Lambda event's shape and through the same key filter, to the same handler
 * (behaviour LOG-10, LOG-11). Each shard is read from where it stood at start (`LATEST`); a shard
 * that appears later (DynamoDB rolls shards over) is read from its beginning.
 *
 * Kept cheap, as the test run starts many local servers on one DynamoDB Local: one GetRecords per
 * open shard per table per tick, a DescribeStream only when a shard has closed or every 30 ticks.
 * A failed call never gives a shard up: it keeps the iterator it had and is tried again next tick
 * (one warning per shard until a read succeeds), since only a shard's end may stop its reading.
 * `close()` stops the timer and waits for a tick under way, so nothing is left running.
 */
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

/** Which records the handler is given (the event source's filter in AWS): by the item's keys. */
export type KeyFilter = readonly { readonly pkPrefix: string; readonly sk?: string; readonly eventNames?: readonly string[] }[];

export interface StreamPollerOptions {
  readonly endpoint: string;
  readonly region: string;
  readonly client: DynamoDBClient;
  readonly tables: readonly { readonly name: string; readonly filter: KeyFilter }[];
  readonly handle: (event: DynamoDBStreamEvent) => Promise<unknown>;
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
  readonly intervalMs?: number;
  /** The streams client to read with (a test's, to make its calls fail); by default one of its own on `endpoint`. */
  readonly streams?: DynamoDBStreamsClient;
}

export interface StreamPoller {
  close(): Promise<void>;
}

interface Shards {
  readonly table: string;
  readonly streamArn: string;
  readonly filter: KeyFilter;
  /** Open shards' next iterators; a closed shard is kept with `null` so it is not read again. */
  readonly iterators: Map<string, string | null>;
  /** Shards that have given records: re-reading one from its start would hand them over twice. */
  readonly delivered: Set<string>;
  /** Shards whose last call failed and that were warned about: one warning until a read succeeds. */
  readonly failing: Set<string>;
}

/** A record failed this many times in a row is dropped with a warning (AWS would retry, then send the batch to its queue). */
const attemptsPerBatch = 3;
const describeEveryTicks = 30;

function passes(filter: KeyFilter, record: StreamRecord): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S ?? '';
  const sk = record.dynamodb?.Keys?.sk?.S ?? '';
  return filter.some(
    (rule) =>
      pk.startsWith(rule.pkPrefix) &&
      (rule.sk === undefined || rule.sk === sk) &&
      (rule.eventNames === undefined || rule.eventNames.includes(record.eventName ?? '')),
  );
}

function lambdaRecordOf(record: StreamRecord, streamArn: string, region: string): DynamoDBRecord {
  const created = record.dynamodb?.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(record.dynamodb as DynamoDBRecord['dynamodb']),
      ...(created ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}),
    },
  } as DynamoDBRecord;
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const streams =
    options.streams ??
    new DynamoDBStreamsClient({
      endpoint: options.endpoint,
      region: options.region,
      // DynamoDB Local takes any credentials; the local server's own clients do the same.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  const iteratorOf = async (streamArn: string, shardId: string, type: 'LATEST' | 'TRIM_HORIZON') =>
    (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: type }))).ShardIterator ??
    null;

  const followNewShards = async (shards: Shards, type: 'LATEST' | 'TRIM_HORIZON') => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: shards.streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || shards.iterators.has(shard.ShardId)) continue;
      shards.iterators.set(shard.ShardId, await iteratorOf(shards.streamArn, shard.ShardId, type));
    }
  };

  const all: Shards[] = [];
  try {
    for (const table of options.tables) {
      const { Table } = await options.client.send(new DescribeTableCommand({ TableName: table.name }));
      if (!Table?.LatestStreamArn) throw new Error(`table ${table.name} has no stream`);
      const shards: Shards = {
        table: table.name,
        streamArn: Table.LatestStreamArn,
        filter: table.filter,
        iterators: new Map(),
        delivered: new Set(),
        failing: new Set(),
      };
      // Before start returns: a write made right after it is read.
      await followNewShards(shards, 'LATEST');
      all.push(shards);
    }
  } catch (error) {
    if (!options.streams) streams.destroy();
    throw error;
  }

  const warnOnce = (shards: Shards, shardId: string, error: unknown) => {
    if (shards.failing.has(shardId)) return;
    shards.failing.add(shardId);
    options.warn('stream poller: shard read failed; trying it again each tick', { table: shards.table, shardId, error: String(error) });
  };

  /**
   * Points the shard at a new iterator of `type`; when that call fails, the shard keeps the
   * iterator it had (stored `null` would read as closed, and the shard would never be read again),
   * so the next tick's read fails the same way and tries again.
   */
  const reposition = async (shards: Shards, shardId: string, type: 'LATEST' | 'TRIM_HORIZON') => {
    try {
      shards.iterators.set(shardId, await iteratorOf(shards.streamArn, shardId, type));
    } catch (error) {
      warnOnce(shards, shardId, error);
    }
  };

  /** Read and not yet handled; `batch` is retried as it is, so its request tokens stay the same (behaviour LOG-12). */
  const queue: DynamoDBRecord[] = [];
  let batch: DynamoDBRecord[] | undefined;
  let attempts = 0;
  let ticks = 0;
  const tick = async () => {
    ticks++;
    const records: DynamoDBRecord[] = [];
    for (const shards of all) {
      let closed = false;
      for (const [shardId, iterator] of shards.iterators) {
        if (iterator === null) continue;
        try {
          const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
          for (const record of page.Records ?? []) {
            if (passes(shards.filter, record)) records.push(lambdaRecordOf(record, shards.streamArn, options.region));
          }
          if ((page.Records ?? []).length > 0) shards.delivered.add(shardId);
          shards.failing.delete(shardId);
          shards.iterators.set(shardId, page.NextShardIterator ?? null);
          if (!page.NextShardIterator) closed = true;
        } catch (error) {
          const name = (error as Error).name;
          if (name === 'TrimmedDataAccessException' && !shards.delivered.has(shardId)) {
            // DynamoDB Local: a LATEST iterator taken while its shard held no record refuses every
            // read, even after records arrive. Such a shard held nothing to skip: read it from its start.
            await reposition(shards, shardId, 'TRIM_HORIZON');
            continue;
          }
          warnOnce(shards, shardId, error);
          // An expired iterator (15 minutes unread, e.g. a laptop asleep) or one past trimmed records:
          // read the shard again from now. Any other failure keeps the iterator, which reads the
          // same records again next tick.
          if (name === 'ExpiredIteratorException' || name === 'TrimmedDataAccessException') await reposition(shards, shardId, 'LATEST');
        }
      }
      if (closed || ticks % describeEveryTicks === 0) await followNewShards(shards, 'TRIM_HORIZON');
    }
    queue.push(...records);
    if (!batch && queue.length > 0) {
      batch = queue.splice(0, 1000);
      attempts = 0;
    }
    if (!batch) return;
    const handed = batch;
    try {
      await options.handle({ Records: handed });
      batch = undefined;
    } catch (error) {
      attempts++;
      if (attempts >= attemptsPerBatch) {
        options.warn('stream poller: batch dropped after failing', { records: handed.length, attempts, error: String(error) });
        batch = undefined;
      }
    }
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => options.warn('stream poller: tick failed', { error: String(error) }))
        .finally(schedule);
    }, options.intervalMs ?? 1000);
  };
  schedule();

  return {
    close: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      if (!options.streams) streams.destroy();
    },
  };
}
