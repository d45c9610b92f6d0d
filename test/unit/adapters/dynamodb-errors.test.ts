/**
 * The one reading of DynamoDB's refusals (lambdas/adapters/dynamodb/items.ts): which writes were
 * refused by a condition, which only by a conflict (safe to try again), and the stored item a
 * refused write failed against (behaviour ERR-5: a resend that meets its own first attempt).
 */
import {
  cancellationCodes,
  cancellationReasons,
  failedAgainst,
  isConditionFailure,
  isOwnWrite,
  isTransactionConflict,
} from '../../../lambdas/adapters/dynamodb/items';

const refused = (name: string, fields: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...fields });
const cancelled = (...reasons: { Code?: string; Item?: Record<string, unknown> }[]) =>
  refused('TransactionCanceledException', { CancellationReasons: reasons });

describe('DynamoDB refusals, read once', () => {
  it('a condition failure is a single write refused by its condition, or any cancelled transaction', () => {
    expect(isConditionFailure(refused('ConditionalCheckFailedException'))).toBe(true);
    expect(isConditionFailure(cancelled({ Code: 'TransactionConflict' }))).toBe(true);
    expect(isConditionFailure(refused('ProvisionedThroughputExceededException'))).toBe(false);
    expect(isConditionFailure(new Error('network'))).toBe(false);
  });

  it('cancellation reasons come in item order, a missing code read as None, a returned item unmarshalled', () => {
    const error = cancelled(
      { Code: 'None' },
      { Code: 'ConditionalCheckFailed', Item: { writeToken: { S: 't1' }, slots: { SS: ['a'] } } },
      {},
    );
    expect(cancellationCodes(error)).toEqual(['None', 'ConditionalCheckFailed', 'None']);
    expect(cancellationReasons(error)[1]).toEqual({ code: 'ConditionalCheckFailed', item: { writeToken: 't1', slots: new Set(['a']) } });
    expect(cancellationCodes(refused('ConditionalCheckFailedException'))).toEqual([]);
  });

  it('a transaction conflict is a refusal for a conflict alone: a failed condition is never tried again', () => {
    expect(isTransactionConflict(refused('TransactionConflictException'))).toBe(true);
    expect(isTransactionConflict(cancelled({ Code: 'None' }, { Code: 'TransactionConflict' }))).toBe(true);
    expect(isTransactionConflict(cancelled({ Code: 'TransactionConflict' }, { Code: 'ConditionalCheckFailed' }))).toBe(false);
    expect(isTransactionConflict(refused('ConditionalCheckFailedException'))).toBe(false);
  });

  it('behaviour ERR-5: the item a write failed against, from a single write or a transaction’s first item, tells its own resend', () => {
    const single = refused('ConditionalCheckFailedException', { Item: { writeToken: { S: 'mine' }, version: { N: '3' } } });
    expect(failedAgainst(single)).toEqual({ writeToken: 'mine', version: 3 });
    expect(isOwnWrite(single, 'mine')).toBe(true);
    expect(isOwnWrite(single, 'theirs')).toBe(false);
    const transaction = cancelled({ Code: 'ConditionalCheckFailed', Item: { writeToken: { S: 'mine' } } }, { Code: 'None' });
    expect(isOwnWrite(transaction, 'mine')).toBe(true);
    expect(isOwnWrite(cancelled({ Code: 'ConditionalCheckFailed' }), 'mine')).toBe(false);
    expect(isOwnWrite(refused('ValidationException', { Item: { writeToken: { S: 'mine' } } }), 'mine')).toBe(false);
  });
});
