/**
 * Token activity rows spread over shards (no hot partition for one busy client),
 * read back merged in time order with paging that neither skips nor repeats a row, against
 * DynamoDB Local.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { activityShardCount } from '../../lambdas/adapters/dynamodb/activity-shards';
import * as partitions from '../../lambdas/adapters/dynamodb/keys/partitions';
import type { ActivityRow } from '../../lambdas/core/model';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { getStorage } from '../../lambdas/wiring/storage';

const clientId = `tgc_shards${randomUUID().slice(0, 8)}`;
const base = Date.parse('2026-11-24T10:00:00.000Z');

function row(index: number, overrides: Partial<ActivityRow> = {}): ActivityRow {
  const startedAt = new Date(base + index * 1000).toISOString();
  return {
    requestType: 'client_credentials',
    clientId,
    ip: '203.0.113.9',
    success: true,
    durationMs: 3,
    startedAt,
    attemptId: `attempt${String(index).padStart(4, '0')}`,
    at: startedAt,
    ...overrides,
  };
}

const rows = Array.from({ length: 200 }, (_, i) => row(i));

beforeAll(async () => {
  const store = getTokenStore();
  for (let i = 0; i < rows.length; i += 25) await Promise.all(rows.slice(i, i + 25).map((r) => store.recordActivity(r)));
});

it("one client's rows land on every one of the 16 shards, none holding more than a quarter", async () => {
  const { db, tables } = getStorage();
  const counts = await Promise.all(
    Array.from({ length: activityShardCount }, async (_, shard) => {
      const { Count = 0 } = await db.send(
        new QueryCommand({
          TableName: tables.activity,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': partitions.activityShard(clientId, shard) },
          Select: 'COUNT',
        }),
      );
      return Count;
    }),
  );
  expect(counts.reduce((a, b) => a + b, 0)).toBe(rows.length);
  expect(counts.every((n) => n > 0)).toBe(true);
  expect(Math.max(...counts)).toBeLessThanOrEqual(rows.length / 4);
});

it('pages of 7 merge the shards newest first (behaviour LOG-16), every row exactly once', async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await getTokenStore().activityPage(clientId, { limit: 7, ...(cursor ? { cursor } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(7);
    seen.push(...page.items.map((r) => r.attemptId));
    cursor = page.next;
    pages++;
  } while (cursor && pages < 100);
  expect(seen).toEqual(rows.map((r) => r.attemptId).reverse());
});

it('a time range returns only the attempts that started in it, still paged', async () => {
  const from = rows[50]!.startedAt;
  const to = rows[79]!.startedAt;
  const first = await getTokenStore().activityPage(clientId, { from, to, limit: 20 });
  const second = await getTokenStore().activityPage(clientId, { from, to, limit: 20, cursor: first.next! });
  expect([...first.items, ...second.items].map((r) => r.attemptId)).toEqual(
    rows
      .slice(50, 80)
      .map((r) => r.attemptId)
      .reverse(),
  );
  expect(second.next).toBeUndefined();
});

it('a failure row written after a half-landed success row of the same attempt replaces it (same shard, same item)', async () => {
  const other = `tgc_shards${randomUUID().slice(0, 8)}`;
  const attempt = row(0, { clientId: other, attemptId: 'attempt-replaced' });
  await getTokenStore().recordActivity(attempt);
  await getTokenStore().recordActivity({ ...attempt, success: false, reason: 'server_error: lost' });
  expect(await getTokenStore().activityOf(other)).toEqual([expect.objectContaining({ attemptId: 'attempt-replaced', success: false })]);
});

it('a cursor position past the range, or a range that ends before it starts, is never a DynamoDB error', async () => {
  const past = Buffer.from(JSON.stringify({ [partitions.activityShard(clientId, 0)]: 'zzzz' })).toString('base64url');
  const page = await getTokenStore().activityPage(clientId, { limit: 5, to: rows[10]!.startedAt, cursor: past });
  expect(page.items.every((r) => r.startedAt <= rows[10]!.startedAt)).toBe(true);
  await expect(
    getTokenStore().activityPage(clientId, { limit: 5, from: rows[9]!.startedAt, to: rows[3]!.startedAt }),
  ).rejects.toMatchObject({ code: 'invalid_request' });
});

it('a cursor that is not one of this list is invalid_request, never a DynamoDB error', async () => {
  for (const cursor of [
    'garbage',
    Buffer.from(JSON.stringify({ 'ACTIVITY#elsewhere#00': 'x' })).toString('base64url'),
    Buffer.from('[]').toString('base64url'),
  ]) {
    await expect(getTokenStore().activityPage(clientId, { limit: 5, cursor })).rejects.toMatchObject({ code: 'invalid_request' });
  }
});
