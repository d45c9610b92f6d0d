import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableName } from '../../routes';
import { tableDefinitions, tableNames } from './table-definitions';

export type PhysicalTableNames = Readonly<Record<TableName, string>>;

export interface DynamoConnection {
  /** DynamoDB Local's address; unset in AWS. */
  readonly endpoint?: string;
  readonly region?: string;
}

export function createDynamoClient({ endpoint, region }: DynamoConnection): DynamoDBClient {
  return new DynamoDBClient({
    region: region ?? 'us-east-1',
    ...(endpoint
      ? // DynamoDB Local accepts any credentials; fixed ones keep local runs independent of ~/.aws.
        { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
}

export function createDocumentClient(connection: DynamoConnection | DynamoDBClient): DynamoDBDocumentClient {
  const client = connection instanceof DynamoDBClient ? connection : createDynamoClient(connection);
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

/** Physical table names from the variables the stack (or the local server) sets. */
export function tableNamesFromEnv(env: Readonly<Record<string, string | undefined>>): PhysicalTableNames {
  const missing = tableNames.filter((t) => !env[tableDefinitions[t].envVar]);
  if (missing.length > 0) {
    throw new Error(`Missing table name variables: ${missing.map((t) => tableDefinitions[t].envVar).join(', ')}`);
  }
  return Object.fromEntries(tableNames.map((t) => [t, env[tableDefinitions[t].envVar] as string])) as PhysicalTableNames;
}
