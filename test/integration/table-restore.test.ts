/**
 * Restoring from a backup (behaviour OPS-6; docs/deployment.md "Restoring from a backup"): the
 * items of a restored table copied into the stack's table, as `npm run restore:table` does, against
 * DynamoDB Local. `replace` leaves exactly the restored items (what was added after the restore
 * point goes), `merge` adds them and deletes nothing (the activity log keeps its newer entries).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { BatchWriteCommand, type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createDynamoClient } from '../../lambdas/adapters/dynamodb/client';
import { restoreTableItems } from '../../lambdas/adapters/dynamodb/table-restore';
import { ensureTables, physicalTableNames } from '../../lambdas/local/tables';

let db: DynamoDBDocumentClient;
let restored: string;
let live: string;

const keys = { partitionKey: 'pk', sortKey: 'sk' };
const user = (id: string, name: string) => ({ pk: `USER#${id}`, sk: 'USER', gsi1pk: 'USERS', gsi1sk: `2026#${id}`, name });

beforeAll(async () => {
  const endpoint = process.env.DYNAMODB_ENDPOINT!;
  const restoredSet = physicalTableNames(`restored-${randomUUID().slice(0, 8)}-`);
  const liveSet = physicalTableNames(`live-${randomUUID().slice(0, 8)}-`);
  const client = createDynamoClient({ endpoint });
  await ensureTables(client, restoredSet);
  await ensureTables(client, liveSet);
  client.destroy();
  db = createDocumentClient({ endpoint });
  restored = restoredSet.main;
  live = liveSet.main;
});

async function fill(table: string, items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

async function everything(table: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort((a, b) => String(a.pk).localeCompare(String(b.pk)));
}

async function emptied(table: string): Promise<void> {
  const items = await everything(table);
  for (let i = 0; i < items.length; i += 25) {
    const Keys = items.slice(i, i + 25).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    await db.send(new BatchWriteCommand({ RequestItems: { [table]: Keys } }));
  }
}

beforeEach(async () => {
  await emptied(restored);
  await emptied(live);
});

describe('copying a restored table into the stack’s table (behaviour OPS-6)', () => {
  it('replace: the stack’s table holds exactly the restored items, attributes as they were; what came after the restore point is deleted', async () => {
    // 60 restored users: more than two batches. The live table has one of them changed since,
    // and two created since (a user registered, an admin client an attacker added).
    const before = Array.from({ length: 60 }, (_, i) => user(`u${String(i).padStart(3, '0')}`, `name ${i}`));
    await fill(restored, before);
    await fill(live, [
      user('u000', 'renamed since'),
      user('u900', 'registered since'),
      { pk: 'CLIENT#tgc_evil', sk: 'CLIENT', admin: true },
    ]);

    const result = await restoreTableItems(db, { from: restored, to: live, mode: 'replace', ...keys, segments: 3 });

    expect(result).toEqual({ written: 60, deleted: 2 });
    expect(await everything(live)).toEqual(before);
  });

  it('merge: the restored items are written back and nothing is deleted (the activity log keeps the entries written since)', async () => {
    const lost = [
      { pk: 'AUDIT#tgc_a', sk: '2026-11-01T10:00:00.000Z#1', action: 'client.update' },
      { pk: 'AUDIT#tgc_a', sk: '2026-11-02T10:00:00.000Z#2', action: 'client.delete' },
    ];
    const since = { pk: 'AUDIT#tgc_a', sk: '2026-11-30T10:00:00.000Z#3', action: 'api_key.revoke' };
    await fill(restored, lost);
    await fill(live, [since]);

    expect(await restoreTableItems(db, { from: restored, to: live, mode: 'merge', ...keys })).toEqual({ written: 2, deleted: 0 });
    expect((await everything(live)).map((item) => item.sk)).toEqual([...lost, since].map((item) => item.sk));
  });

  it('writes DynamoDB leaves unprocessed are sent again until done; a run that stopped part-way is simply run again', async () => {
    await fill(
      restored,
      Array.from({ length: 30 }, (_, i) => user(`p${i}`, 'restored')),
    );
    let unprocessedOnce = true;
    const flaky = {
      send: async (command: unknown) => {
        if (command instanceof BatchWriteCommand && unprocessedOnce) {
          unprocessedOnce = false;
          // DynamoDB took none of this batch (throttled): all of it comes back unprocessed.
          return { UnprocessedItems: command.input.RequestItems };
        }
        return db.send(command as never);
      },
    };
    const pauses: number[] = [];
    const result = await restoreTableItems(flaky as never, {
      from: restored,
      to: live,
      mode: 'replace',
      ...keys,
      pause: async (ms) => void pauses.push(ms),
    });
    expect(result.written).toBe(30);
    expect(pauses).toHaveLength(1);
    expect(await everything(live)).toHaveLength(30);
    // Again: the same end state, nothing doubled.
    expect(await restoreTableItems(db, { from: restored, to: live, mode: 'replace', ...keys })).toEqual({ written: 30, deleted: 0 });
    expect(await everything(live)).toHaveLength(30);
  });

  it('npm run restore:table: needs --from, --to (two different tables) and --mode, and copies with them', () => {
    const root = path.resolve(__dirname, '../..');
    const run = (...args: string[]) =>
      spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['bin/restore-table.ts', ...args], {
        cwd: root,
        encoding: 'utf8',
        env: process.env,
      });
    const refused = run('--from', live, '--to', live, '--mode', 'replace');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Usage: npm run restore:table');
    expect(run('--from', restored, '--to', live).status).toBe(1);
    const copied = run('--from', restored, '--to', live, '--mode', 'merge');
    expect(copied.status).toBe(0);
    expect(copied.stdout).toContain(`${live}: 0 items written from ${restored}, 0 deleted`);
  }, 60_000);
});
