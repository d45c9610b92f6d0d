import type { TableName } from '../../routes';
import { DynamoDocumentClient } from '../aws/dynamodb';
import type { AwsCredentials } from '../aws/sigv4';
import { tableDefinitions, tableNames } from './table-definitions';

export type PhysicalTableNames = Readonly<Record<TableName, string>>;

export interface DynamoConnection {
  /** DynamoDB Local's address; unset in AWS. */
  readonly endpoint?: string;
  readonly region?: string;
  /** The function role's credentials (unused with `endpoint`). */
  readonly credentials?: () => AwsCredentials;
}

// DynamoDB Local accepts any credentials; fixed ones keep local runs independent of ~/.aws.
const localCredentials: AwsCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const noCredentials = (): AwsCredentials => {
  throw new Error('no AWS credentials given for DynamoDB');
};

export function createDocumentClient({ endpoint, region = 'us-east-1', credentials }: DynamoConnection): DynamoDocumentClient {
  return new DynamoDocumentClient({
    region,
    endpoint: endpoint ?? `https://dynamodb.${region}.amazonaws.com`,
    credentials: endpoint ? () => localCredentials : (credentials ?? noCredentials),
  });
}

/** Physical table names from the variables the stack (or the local server) sets. */
export function tableNamesFromEnv(env: Readonly<Record<string, string | undefined>>): PhysicalTableNames {
  const missing = tableNames.filter((t) => !env[tableDefinitions[t].envVar]);
  if (missing.length > 0) {
    throw new Error(`Missing table name variables: ${missing.map((t) => tableDefinitions[t].envVar).join(', ')}`);
  }
  return Object.fromEntries(tableNames.map((t) => [t, env[tableDefinitions[t].envVar] as string])) as PhysicalTableNames;
}
