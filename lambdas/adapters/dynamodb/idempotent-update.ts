import { TransactWriteCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { retry, tryAgain } from '../../core/retry';
import { isTransactionConflict } from './items';

type Update = Pick<
  UpdateCommandInput,
  'TableName' | 'Key' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
> & {
  readonly UpdateExpression: string;
};

/**
 * A conditional update applied at most once per call, for updates that are not idempotent
 * themselves (an `ADD`). The DynamoDB client resends a write whose reply was lost; a plain UpdateItem
 * would then be applied twice (or fail its condition against itself). As a one-item
 * transaction it carries a ClientRequestToken, which the DynamoDB client resends unchanged and DynamoDB
 * applies once (for 10 minutes). A failed condition throws TransactionCanceledException
 * (`isConditionFailure`). Concurrent transactions on one item cancel each other
 * (TransactionConflict, nothing written): those are tried again with a new token.
 */
export async function updateOnce(db: DynamoDBDocumentClient, update: Update): Promise<void> {
  await retry(
    async (attempt) => {
      try {
        await db.send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: [{ Update: update }] }));
        return true;
      } catch (error) {
        if (!isTransactionConflict(error)) throw error;
        if (attempt >= 9) throw new Error('DynamoDB kept cancelling the update for conflicting transactions', { cause: error });
        return tryAgain;
      }
    },
    { attempts: 10, delayMs: (attempt) => 5 + Math.random() * 20 * attempt },
  );
}
