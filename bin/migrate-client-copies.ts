/**
 * `npm run migrate:client-copies`: after upgrading a deployment to read-sharded client records
 * (issue 20, docs/storage-schema.md "Client copies"), writes the copies of every client at once
 * instead of on each client's first token request. Safe to run more than once and while the
 * server serves traffic: each client is rewritten from its record by the same guarded
 * transaction an admin edit uses.
 *
 * MAIN_TABLE_NAME=<stack output MainTableName> AWS_REGION=<region> npm run migrate:client-copies
 * (AWS credentials from the usual chain; DYNAMODB_ENDPOINT for DynamoDB Local).
 */
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { DynamoClientRepository } from '../lambdas/adapters/dynamodb/client-repository';

async function main(): Promise<void> {
  const table = process.env.MAIN_TABLE_NAME;
  if (!table) {
    console.error('Set MAIN_TABLE_NAME (the stack output MainTableName) and AWS_REGION.');
    process.exitCode = 1;
    return;
  }
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const db = createDocumentClient({
    ...(process.env.AWS_REGION ? { region: process.env.AWS_REGION } : {}),
    ...(endpoint ? { endpoint } : {}),
  });
  const clients = await new DynamoClientRepository(db, table).addCopiesToAll();
  console.log(`client copies written for ${clients} clients of ${table}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
