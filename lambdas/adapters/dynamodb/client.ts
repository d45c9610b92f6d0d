import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableName } from './table-definitions';
import { type AwsClientSettings, boundToInvocation, clientConfig } from '../aws/sdk-clients';
import { tableDefinitions, tableNames } from './table-definitions';

export type PhysicalTableNames = Readonly<Record<TableName, string>>;

export interface DynamoConnection extends AwsClientSettings {
  /**
   * An endpoint of the project's own choosing (DYNAMODB_ENDPOINT: DynamoDB Local, for the local
   * server and the tests). Unset in AWS, where the SDK resolves it (and honours
   * AWS_ENDPOINT_URL_DYNAMODB, FIPS and dual-stack settings).
   */
  readonly endpoint?: string;
}

/**
 * DynamoDB answers in milliseconds: an attempt that has not connected within a second or answered
 * within two is treated as lost and sent again. Our writes are conditional or idempotent (the fault
 * tests prove it), so a resend is safe. Three attempts is the SDK's standard mode default; with
 * these bounds they fit well inside the function's 10 s, and the invocation deadline ends them
 * sooner when little time is left.
 */
export const dynamoCallBounds = { maxAttempts: 3, connectionTimeout: 1000, requestTimeout: 2000 } as const;

/** DynamoDB Local, on this machine: it accepts any credentials, so fixed ones keep local runs independent of ~/.aws. */
function isLoopback(endpoint: string): boolean {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

export function createDynamoClient(connection: DynamoConnection = {}): DynamoDBClient {
  const { endpoint } = connection;
  return new DynamoDBClient({
    ...clientConfig(dynamoCallBounds, connection),
    ...(endpoint ? { endpoint } : {}),
    ...(endpoint && isLoopback(endpoint)
      ? { region: connection.region ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
}

/** The document client every repository uses: plain values in and out, undefined attributes dropped. */
export function createDocumentClient(connection: DynamoConnection = {}): DynamoDBDocumentClient {
  const document = DynamoDBDocumentClient.from(createDynamoClient(connection), { marshallOptions: { removeUndefinedValues: true } });
  return boundToInvocation(document, connection);
}

/** Physical table names from the variables the stack (or the local server) sets. */
export function tableNamesFromEnv(env: Readonly<Record<string, string | undefined>>): PhysicalTableNames {
  const missing = tableNames.filter((t) => !env[tableDefinitions[t].envVar]);
  if (missing.length > 0) {
    throw new Error(`Missing table name variables: ${missing.map((t) => tableDefinitions[t].envVar).join(', ')}`);
  }
  return Object.fromEntries(tableNames.map((t) => [t, env[tableDefinitions[t].envVar] as string])) as PhysicalTableNames;
}
