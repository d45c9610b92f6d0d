/**
 * The conditional writes every store sends, each written once. The DynamoDB client resends a write
 * whose reply was lost (behaviour ERR-5), so each one says how its resend is told from a refusal:
 * a transaction carries a ClientRequestToken (DynamoDB applies it once and answers the resend as
 * the first, for 10 minutes), a create stores a per-request `writeToken` it recognises.
 */
import { TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { retry, tryAgain } from '../../core/retry';
import { isConditionFailure, isOwnWrite, isTransactionConflict, type TransactItem } from './items';

/**
 * Writes `items` in one transaction: true when written, false when a condition refused it (or a
 * concurrent transaction held one of its items; nothing was written either way).
 */
export async function transactIfConditionsHold(db: DynamoDBDocumentClient, items: TransactItem[]): Promise<boolean> {
  try {
    await db.send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: items }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** One conditional update, idempotent by itself (it sets values): true when written, false when its condition refused it. */
export async function updateIfConditionHolds(db: DynamoDBDocumentClient, update: UpdateCommandInput): Promise<boolean> {
  try {
    await db.send(new UpdateCommand(update));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Puts `item` unless an item with its key exists, with `alongside` in the same transaction. The
 * item stores `writeToken` and the transaction uses it as its request token, so the DynamoDB
 * client's resend of a create that landed resolves as created instead of meeting its own item.
 * Any other refusal is thrown (its first cancellation code is `ConditionalCheckFailed` when the
 * key was taken).
 */
export async function putNew(
  db: DynamoDBDocumentClient,
  table: string,
  item: Record<string, unknown>,
  alongside: readonly TransactItem[] = [],
  writeToken: string = randomUUID(),
): Promise<void> {
  try {
    await db.send(
      new TransactWriteCommand({
        ClientRequestToken: writeToken,
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: { ...item, writeToken },
              ConditionExpression: 'attribute_not_exists(pk)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          ...alongside,
        ],
      }),
    );
  } catch (error) {
    if (!isOwnWrite(error, writeToken)) throw error;
  }
}

/** How `transactRetryingConflicts` tries again; by default a new token per try, 10 tries, short waits. */
export interface ConflictRetry {
  /**
   * One token for every try, for a write whose token identifies it beyond this call (the
   * statistics rollup's, made from its stream batch: behaviour LOG-12), so a try that landed
   * unseen is never applied twice.
   */
  readonly requestToken?: string;
  readonly attempts?: number;
  readonly delayMs?: (attempt: number) => number;
}

/**
 * Writes `items` in one transaction, sent again while a concurrent transaction on one of its items
 * cancels it (TransactionConflict: nothing was written), up to 10 times by default. `refused`
 * answers for any other refusal, and for a conflict that outlasted the tries.
 */
export async function transactRetryingConflicts<T>(
  db: DynamoDBDocumentClient,
  items: TransactItem[],
  refused: (error: unknown) => T,
  how: ConflictRetry = {},
): Promise<true | T> {
  const attempts = how.attempts ?? 10;
  const outcome = await retry<true | T>(
    async (attempt) => {
      try {
        await db.send(new TransactWriteCommand({ ClientRequestToken: how.requestToken ?? randomUUID(), TransactItems: items }));
        return true;
      } catch (error) {
        if (isTransactionConflict(error) && attempt < attempts - 1) return tryAgain;
        return refused(error);
      }
    },
    { attempts, delayMs: how.delayMs ?? ((attempt) => 5 + Math.random() * 20 * attempt) },
  );
  // The last try answers through `refused`, so the tries never run out without an answer.
  return outcome as true | T;
}

type Update = Pick<
  UpdateCommandInput,
  'TableName' | 'Key' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
> & {
  readonly UpdateExpression: string;
};

/**
 * A conditional update applied at most once per call, for updates that are not idempotent
 * themselves (an `ADD`): a plain UpdateItem resent after a lost reply would be applied twice (or
 * fail its condition against itself). As a one-item transaction it carries a ClientRequestToken.
 * A failed condition throws TransactionCanceledException (`isConditionFailure`).
 */
export async function updateOnce(db: DynamoDBDocumentClient, update: Update): Promise<void> {
  await transactRetryingConflicts(db, [{ Update: update }], (error) => {
    throw isTransactionConflict(error)
      ? new Error('DynamoDB kept cancelling the update for conflicting transactions', { cause: error })
      : error;
  });
}
