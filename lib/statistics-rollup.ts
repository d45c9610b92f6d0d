/**
 * The token statistics and service counters (behaviour LOG-10 to LOG-13): one function invoked by
 * the main and activity tables' streams, with event filters so only what it counts invokes it
 * (token activity rows, not audit entries; client, user and API key records, not a client's read
 * copies, a user's other items, sessions...). Its writes are `ADD`s to the `STATS#` items of the
 * activity table, granted by the key-family machinery (lambdas/routes.ts `statisticsRollup`).
 *
 * Streams rather than counters in the request path's own transactions: every token request would
 * write the same hot item (transaction conflicts, and added latency on the path that matters
 * most). The price is a lag: a batching window of up to a minute, which an overview can live with.
 *
 * A failed batch is retried whole, a few times within a minute or two (no bisecting: a half would
 * carry other request tokens and count again what the first try wrote; the whole batch sent again
 * within DynamoDB's 10-minute idempotency window counts once); a batch that still fails
 * is named on the async-failures queue (AsyncWorkFailed alarm) and its counts are lost, as a retry
 * later than DynamoDB's 10-minute idempotency window could count some twice. The recount
 * (`{"recount": true}`, docs/deployment.md) sets the service counters right again; hourly token
 * counts are not recounted.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sources from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { countedKeys } from '../lambdas/adapters/dynamodb/keys/counted-records';
import { serviceFunction } from './functions';

export interface StatisticsRollupProps {
  readonly tables: { readonly main: dynamodb.ITableV2; readonly activity: dynamodb.ITableV2 };
  /** The functions' settings and table names (the handler loads the configuration as every function does). */
  readonly environment: Record<string, string>;
  readonly logRetention: logs.RetentionDays;
  readonly tracing?: boolean;
  /** Where a batch that failed all its retries is named (lib/async-failures.ts). */
  readonly failures: sqs.IQueue;
}

/** Behaviour LOG-12: how long a counted change may wait before the overview shows it, besides the function's run. */
export const statisticsBatchingWindow = Duration.minutes(1);

/** The event filters of a table: its counted records' key shapes, one filter each (at most 5 per event source). */
export function statisticsFilters(table: keyof typeof countedKeys): Record<string, unknown>[] {
  return countedKeys[table].map((rule) =>
    lambda.FilterCriteria.filter({
      ...('eventNames' in rule ? { eventName: [...rule.eventNames] } : {}),
      dynamodb: {
        Keys: {
          pk: { S: lambda.FilterRule.beginsWith(rule.pkPrefix) },
          ...('sk' in rule ? { sk: { S: lambda.FilterRule.isEqual(rule.sk) } } : {}),
        },
      },
    }),
  );
}

export class StatisticsRollup extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: StatisticsRollupProps) {
    super(scope, id);
    this.function = serviceFunction(this, 'Function', {
      entry: 'lambdas/jobs/roll-up-statistics.ts',
      description: 'Rolls the tables’ streams up into the overview’s token counts and counters',
      environment: props.environment,
      memorySize: 256,
      timeout: Duration.minutes(1),
      logRetention: props.logRetention,
      tracing: props.tracing,
    });
    for (const table of ['main', 'activity'] as const) {
      this.function.addEventSource(
        new sources.DynamoEventSource(props.tables[table] as unknown as dynamodb.ITable, {
          // Behaviour LOG-13: from now on. From the stream's start, a replaced mapping (a changed
          // construct id, a stream turned off and on) would count its last 24 hours a second time;
          // the recount sets the service counters after a first deploy.
          startingPosition: lambda.StartingPosition.LATEST,
          batchSize: 1000,
          maxBatchingWindow: statisticsBatchingWindow,
          retryAttempts: 5,
          bisectBatchOnError: false,
          filters: statisticsFilters(table),
          onFailure: new sources.SqsDlq(props.failures),
        }),
      );
    }
  }
}
