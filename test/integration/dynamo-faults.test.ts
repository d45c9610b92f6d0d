/**
 * The DynamoDB fault double (test/support/dynamo-faults.ts) itself: a fault before the
 * database leaves nothing written, a fault after it leaves the write done with its reply
 * lost, and the SDK retries either within its budget of attempts.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { getStorage } from '../../lambdas/wiring/storage';
import { DynamoFaults, touches } from '../support/dynamo-faults';

let faults: DynamoFaults;
beforeEach(() => (faults = DynamoFaults.install()));
afterEach(() => faults.uninstall());

const put = (pk: string) => getStorage().db.send(new PutCommand({ TableName: getStorage().tables.main, Item: { pk, sk: 'PROBE' } }));
const stored = async (pk: string) =>
  (await getStorage().db.send(new GetCommand({ TableName: getStorage().tables.main, Key: { pk, sk: 'PROBE' }, ConsistentRead: true })))
    .Item;

it('a fault before the database on every attempt: the call fails and nothing is written', async () => {
  const pk = `PROBE#${randomUUID()}`;
  faults.fail({ operation: 'PutItem', phase: 'before', where: (a) => touches(a, pk) });
  await expect(put(pk)).rejects.toThrow();
  // The SDK's whole retry budget (4 attempts for DynamoDB in the locked SDK), every one refused.
  expect(faults.injected.length).toBeGreaterThanOrEqual(3);
  expect(faults.injected).toHaveLength(faults.attempts.filter((a) => touches(a, pk)).length);
  faults.clear();
  expect(await stored(pk)).toBeUndefined();
});

it('a reply lost after the database on every attempt: the call fails but the write happened', async () => {
  const pk = `PROBE#${randomUUID()}`;
  faults.fail({ operation: 'PutItem', phase: 'after', where: (a) => touches(a, pk) });
  await expect(put(pk)).rejects.toMatchObject({ code: 'ECONNRESET' });
  faults.clear();
  expect(await stored(pk)).toEqual({ pk, sk: 'PROBE' });
});

it('fewer faults than the retry budget are absorbed by the SDK: the call succeeds', async () => {
  const pk = `PROBE#${randomUUID()}`;
  faults.fail({ operation: 'PutItem', phase: 'before', times: 2, where: (a) => touches(a, pk) });
  await put(pk);
  expect(faults.attempts.filter((a) => touches(a, pk))).toHaveLength(3);
  expect(await stored(pk)).toEqual({ pk, sk: 'PROBE' });
});

it('random faults follow their seed: the same seed fails the same attempts', async () => {
  const run = async () => {
    faults.clear();
    faults.injected.length = 0;
    faults.randomly({ rate: 0.5, seed: 7, where: (a) => a.operation === 'GetItem' });
    for (let i = 0; i < 10; i++) await stored(`PROBE#${randomUUID()}`).catch(() => undefined);
    return faults.injected.map((f) => f.phase).join();
  };
  const first = await run();
  expect(first).not.toBe('');
  expect(await run()).toBe(first);
});
