/**
 * Creates the tables from the shared definitions (the ones the CDK stack deploys),
 * for the local server and the test run. Idempotent: existing tables are kept, and gain the
 * indexes added to the definitions since they were created (a DATA_DIR from an older version).
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type { PhysicalTableNames } from '../adapters/dynamodb/client';
import { tableDefinitions, tableNames, type TableDefinition } from '../adapters/dynamodb/table-definitions';
import { pause } from '../core/retry';

/** Physical names: a prefix keeps several sets apart in one DynamoDB Local. */
export function physicalTableNames(prefix: string): PhysicalTableNames {
  return Object.fromEntries(tableNames.map((t) => [t, `${prefix}${t}`])) as unknown as PhysicalTableNames;
}

/** The variables through which functions learn the names (as the stack sets them). */
export function tableEnv(names: PhysicalTableNames): Record<string, string> {
  return Object.fromEntries(tableNames.map((t) => [tableDefinitions[t].envVar, names[t]]));
}

async function createTable(client: DynamoDBClient, name: string, def: TableDefinition): Promise<void> {
  const attributes = new Set([def.partitionKey, def.sortKey, ...def.globalIndexes.flatMap((i) => [i.partitionKey, i.sortKey])]);
  try {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: 'PAY_PER_REQUEST',
        ...(def.stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: def.stream } } : {}),
        AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: def.partitionKey, KeyType: 'HASH' },
          { AttributeName: def.sortKey, KeyType: 'RANGE' },
        ],
        ...(def.globalIndexes.length > 0
          ? {
              GlobalSecondaryIndexes: def.globalIndexes.map((index) => ({
                IndexName: index.indexName,
                KeySchema: [
                  { AttributeName: index.partitionKey, KeyType: 'HASH' },
                  { AttributeName: index.sortKey, KeyType: 'RANGE' },
                ],
                Projection: { ProjectionType: 'ALL' },
              })),
            }
          : {}),
      }),
    );
  } catch (error) {
    if (error instanceof ResourceInUseException) {
      await addMissingIndexes(client, name, def);
      return addMissingStream(client, name, def);
    }
    throw error;
  }
  for (let i = 0; i < 100; i++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    if (Table?.TableStatus === 'ACTIVE') break;
    await pause(50);
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: name,
      TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
    }),
  );
}

/** E.g. the activity table's gsi1 (the audit log by day, behaviour LOG-9) on a table made before it existed. */
async function addMissingIndexes(client: DynamoDBClient, name: string, def: TableDefinition): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of def.globalIndexes.filter((i) => !existing.has(i.indexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: name,
        AttributeDefinitions: [
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: index.indexName,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: 'HASH' },
                { AttributeName: index.sortKey, KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          },
        ],
      }),
    );
  }
}

/** The main table's stream (the statistics rollup, behaviour LOG-11) on a table made before it had one. */
async function addMissingStream(client: DynamoDBClient, name: string, def: TableDefinition): Promise<void> {
  if (!def.stream) return;
  const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
  if (Table?.StreamSpecification?.StreamEnabled) return;
  await client.send(new UpdateTableCommand({ TableName: name, StreamSpecification: { StreamEnabled: true, StreamViewType: def.stream } }));
}

export async function ensureTables(client: DynamoDBClient, names: PhysicalTableNames): Promise<void> {
  await Promise.all(tableNames.map((t) => createTable(client, names[t], tableDefinitions[t])));
}
