/**
 * DynamoDB table definitions, read by both the CDK stack and the local bootstrap,
 * so the tables the tests run against are the tables that deploy.
 * Key layout of every item: docs/storage-schema.md.
 */
/** The logical tables; a route row's storage declarations name them (lambdas/routes.ts). */
export type TableName = 'main' | 'ephemeral' | 'activity';

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export interface TableDefinition {
  readonly name: TableName;
  /** Environment variable through which functions learn the physical table name. */
  readonly envVar: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Epoch-seconds attribute DynamoDB TTL deletes by (up to days late: readers must check it too). */
  readonly ttlAttribute: string;
  readonly globalIndexes: readonly IndexDefinition[];
  /**
   * The table's stream, both images: the audit archive (behaviour IAM-4) and the statistics rollup
   * (LOG-10, LOG-11) read it, in AWS through event source mappings, locally through the poller.
   */
  readonly stream?: 'NEW_AND_OLD_IMAGES';
}

export const tableDefinitions: Readonly<Record<TableName, TableDefinition>> = {
  /** Long-lived records: environments, users, grants, scopes, clients, API keys. */
  main: {
    name: 'main',
    envVar: 'MAIN_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ttl',
    globalIndexes: [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
    stream: 'NEW_AND_OLD_IMAGES',
  },
  /** Short-lived records: sessions, authorization codes, refresh tokens, rate counters. */
  ephemeral: {
    name: 'ephemeral',
    envVar: 'EPHEMERAL_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ttl',
    globalIndexes: [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  },
  /**
   * Append-only logs: token activity and the admin audit log, pruned by TTL after retention.
   * gsi1 holds audit entries only (by day, lambdas/adapters/dynamodb/audit-log.ts): token
   * activity rows carry no gsi1 keys, so they cost no index write.
   */
  activity: {
    name: 'activity',
    envVar: 'ACTIVITY_TABLE_NAME',
    partitionKey: 'pk',
    sortKey: 'sk',
    ttlAttribute: 'ttl',
    globalIndexes: [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
    stream: 'NEW_AND_OLD_IMAGES',
  },
};

export const tableNames = Object.keys(tableDefinitions) as TableName[];
