/**
 * The AWS SDK's DynamoDB client, for local set-up only (creating DynamoDB Local's tables,
 * waiting for it to answer): control-plane calls the request path never makes. Requests go
 * through lambdas/adapters/aws/dynamodb.ts, here as in Lambda.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

export function createDynamoClient({ endpoint, region }: { readonly endpoint: string; readonly region?: string }): DynamoDBClient {
  // DynamoDB Local accepts any credentials; fixed ones keep local runs independent of ~/.aws.
  return new DynamoDBClient({ region: region ?? 'us-east-1', endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}
