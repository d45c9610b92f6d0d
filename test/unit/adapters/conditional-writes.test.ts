/**
 * The conditional writes every DynamoDB store sends (lambdas/adapters/dynamodb/conditional-writes.ts),
 * against a stand-in client that answers each send in turn: what counts as written, as refused,
 * as this request's own resend (behaviour ERR-5), and which refusals are sent again.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  putNew,
  transactIfConditionsHold,
  transactRetryingConflicts,
  updateIfConditionHolds,
  updateOnce,
} from '../../../lambdas/adapters/dynamodb/conditional-writes';

const refusal = (name: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...fields });
const cancelled = (...codes: string[]) => refusal('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

/** A client whose sends answer `outcomes` in order (an Error is thrown), recording each input. */
function answering(...outcomes: (Error | undefined)[]) {
  const inputs: Record<string, unknown>[] = [];
  const db = {
    send: async (command: { input: Record<string, unknown> }) => {
      inputs.push(command.input);
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { db, inputs };
}

const update = { TableName: 't', Key: { pk: 'A', sk: 'A' }, UpdateExpression: 'SET x = :x', ExpressionAttributeValues: { ':x': 1 } };

test('a refused condition answers false; any other error is thrown', async () => {
  expect(await updateIfConditionHolds(answering(undefined).db, update)).toBe(true);
  expect(await updateIfConditionHolds(answering(refusal('ConditionalCheckFailedException')).db, update)).toBe(false);
  expect(await transactIfConditionsHold(answering(cancelled('ConditionalCheckFailed')).db, [{ Update: update }])).toBe(false);
  await expect(updateIfConditionHolds(answering(refusal('ValidationException')).db, update)).rejects.toThrow('ValidationException');
});

test('every transaction carries a request token, so a resend after a lost reply is applied once', async () => {
  const { db, inputs } = answering(undefined);
  await transactIfConditionsHold(db, [{ Update: update }]);
  expect(inputs[0]!.ClientRequestToken).toEqual(expect.any(String));
});

test('putNew: a refusal against this create’s own first write is a creation; a taken key is thrown', async () => {
  const own = answering(
    refusal('TransactionCanceledException', {
      CancellationReasons: [{ Code: 'ConditionalCheckFailed', Item: { writeToken: { S: 'w1' } } }],
    }),
  );
  await expect(putNew(own.db, 't', { pk: 'A', sk: 'A' }, [], 'w1')).resolves.toBeUndefined();
  expect(own.inputs[0]).toMatchObject({ ClientRequestToken: 'w1', TransactItems: [{ Put: { Item: { pk: 'A', writeToken: 'w1' } } }] });
  const taken = answering(
    refusal('TransactionCanceledException', {
      CancellationReasons: [{ Code: 'ConditionalCheckFailed', Item: { writeToken: { S: 'other' } } }],
    }),
  );
  await expect(putNew(taken.db, 't', { pk: 'A', sk: 'A' }, [], 'w1')).rejects.toMatchObject({ name: 'TransactionCanceledException' });
});

test('a transaction cancelled by a conflict alone is sent again with a new token; a failed condition is not', async () => {
  const conflicted = answering(cancelled('None', 'TransactionConflict'), cancelled('TransactionConflict'), undefined);
  expect(await transactRetryingConflicts(conflicted.db, [{ Update: update }], () => 'refused')).toBe(true);
  expect(conflicted.inputs).toHaveLength(3);
  expect(new Set(conflicted.inputs.map((input) => input.ClientRequestToken)).size).toBe(3);
  const refused = answering(cancelled('TransactionConflict', 'ConditionalCheckFailed'));
  expect(await transactRetryingConflicts(refused.db, [{ Update: update }], () => 'refused')).toBe('refused');
  expect(refused.inputs).toHaveLength(1);
});

test('a conflict that outlasts 10 tries goes to the refusal; updateOnce then says so', async () => {
  const always = () => answering(...Array.from({ length: 10 }, () => cancelled('TransactionConflict')));
  const tried = always();
  expect(await transactRetryingConflicts(tried.db, [{ Update: update }], () => 'gave up')).toBe('gave up');
  expect(tried.inputs).toHaveLength(10);
  await expect(updateOnce(always().db, update)).rejects.toThrow('kept cancelling the update for conflicting transactions');
});
