/**
 * The token statistics and service counters (behaviour LOG-10 to LOG-13), kept up to date from the
 * main and activity tables' streams: the event sources' filters (lib/statistics-rollup.ts) hand it
 * token activity rows, client, user and API key records only. The local server's stream poller
 * (lambdas/local/stream-poller.ts) calls this same handler.
 *
 * A batch's deltas are written as `ADD`s in transactions whose request tokens come from the batch's
 * event ids, so Lambda's retry of the same batch within DynamoDB's 10-minute idempotency window
 * does not count that batch twice; a failed batch throws and is retried whole (no bisecting: halves would
 * carry other tokens and count again what the first try wrote). `{"recount": true}`, invoked by an
 * operator, counts the service counters again from the lists (docs/deployment.md).
 */
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { withinDeadline } from '../adapters/aws/invocation-deadline';
import { recountServiceCounters } from '../adapters/dynamodb/statistics-recount';
import { changesOf, itemUpdatesOf, writeItemUpdates } from '../adapters/dynamodb/statistics-stream';
import { rollUp } from '../core/admin/statistics-rollup';
import { runInRequest } from '../http/request-context';
import { getContainer } from '../wiring/container';
import { getStorage } from '../wiring/storage';

export interface RecountRequest {
  readonly recount: true;
}

const isRecount = (event: unknown): event is RecountRequest =>
  typeof event === 'object' && event !== null && (event as { recount?: unknown }).recount === true;

// Labelled with its declaration's name (lambdas/routes.ts `statisticsRollup`): the tests check each
// request it sends against the grant (behaviour IAM-3).
export const handler = withinDeadline((event: DynamoDBStreamEvent | RecountRequest) =>
  runInRequest({ job: 'RollUpStatistics' }, async () => {
    const { log } = getContainer();
    const { db, tables } = getStorage();
    if (isRecount(event)) {
      const counted = await recountServiceCounters(db, tables);
      log.info('recounted the service counters', counted);
      return counted;
    }
    const records = event.Records ?? [];
    const updates = itemUpdatesOf(rollUp(changesOf(records)));
    await writeItemUpdates(
      db,
      tables.activity,
      updates,
      records.map((record) => record.eventID ?? ''),
    );
    log.debug('rolled up statistics', { records: records.length, items: updates.length });
    return undefined;
  }),
);
