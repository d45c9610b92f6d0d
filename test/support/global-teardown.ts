import { rm } from 'node:fs/promises';
import type { DynamoDbLocal } from '../../lambdas/local/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoDbLocal__?: DynamoDbLocal }).__dynamoDbLocal__?.stop();
  if (process.env.TEST_TMP_DIR) await rm(process.env.TEST_TMP_DIR, { recursive: true, force: true });
}
