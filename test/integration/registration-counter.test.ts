import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientNetwork, DynamoRegistrationCounter } from '../../lambdas/adapters/dynamodb/registration-counter';
import { handler as pruneJob } from '../../lambdas/jobs/prune-registration-counters';
import { getStorage } from '../../lambdas/wiring/storage';

describe('registration counters (behaviour REG-7: stored in the database, pruned by a daily job)', () => {
  const day = 86_400_000;

  it('starts a new count each UTC day, and Retry-After points at the end of the day', async () => {
    const { db, tables } = getStorage();
    const counter = new DynamoRegistrationCounter(db, tables.ephemeral);
    const ip = `203.0.113.${randomUUID()}`;
    // A future day: DynamoDB Local applies TTL, and a past day's counter may already be gone.
    const tomorrow = new Date(Date.now() + day);
    const lateEvening = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 23, 59, 0);
    expect(await counter.hit(ip, lateEvening, 1)).toEqual({ allowed: true, retryAfterSeconds: 60 });
    expect((await counter.hit(ip, lateEvening, 1)).allowed).toBe(false);
    expect((await counter.hit(ip, lateEvening + 2 * 60_000, 1)).allowed).toBe(true);
  });

  it('the daily job deletes the counters of past days and keeps today’s', async () => {
    const { db, tables } = getStorage();
    const counter = new DynamoRegistrationCounter(db, tables.ephemeral);
    const ip = `203.0.113.${randomUUID()}`;
    const now = Date.now();
    await counter.hit(ip, now - day, 10);
    await counter.hit(ip, now, 10);
    const key = (ms: number) => ({ pk: `DCRRATE#${new Date(ms).toISOString().slice(0, 10)}#${ip}`, sk: 'DCRRATE' });
    const get = async (ms: number) => (await db.send(new GetCommand({ TableName: tables.ephemeral, Key: key(ms) }))).Item;
    expect(await get(now - day)).toMatchObject({ count: 1 }); // yesterday's TTL is still ahead
    const { deleted } = await pruneJob();
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await get(now - day)).toBeUndefined();
    expect(await get(now)).toMatchObject({ count: 1 });
  });
});

describe('what the registration cap counts', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('counts %s as %s (an IPv6 subscriber holds a whole /64)', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });
});
