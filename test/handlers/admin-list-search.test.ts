/**
 * How much one answer of a searched or filtered admin list examines (behaviour ADMIN-21..ADMIN-23):
 * whole chunks of 100 per read, so a rare match among hundreds is found in one answer, and pages
 * that end inside a chunk resume right after their last item, losing and repeating nothing.
 * In tables of its own, this file knows every list's length.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { handler as listClients } from '../../lambdas/handlers/admin/clients-list';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { callAdmin } from '../support/admin-calls';
import { createKeyAs, listKeysAs, revokeKeyAs } from '../support/api-keys';
import { DynamoFaults } from '../support/dynamo-faults';
import { jsonBody } from '../support/events';
import { adminClientToken, createClient, createEnvironment, createUser, issueAccessToken } from '../support/fixtures';
import { useOwnTables } from '../support/own-tables';

useOwnTables();

type Listed = { items: Record<string, unknown>[]; next_cursor?: string };
const listed = (response: APIGatewayProxyResult) => jsonBody(response) as unknown as Listed;

/** Every page to the list's end. */
async function allPages(call: (cursor?: string) => Promise<Listed>): Promise<{ items: Record<string, unknown>[]; pages: number }> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 200; pages++) {
    const page = await call(cursor);
    items.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor) return { items, pages };
  }
  throw new Error('more than 200 pages');
}

/** Later than the admin client's own record, one minute per index, so the order is known. */
const future = (index: number) => new Date(Date.UTC(2092, 0, 1, 0, index)).toISOString();

/**
 * Runs `make` for 0..count-1, a few at a time: each client is an 8-item transaction, and twenty at
 * once kept DynamoDB Local, shared with the whole suite, past the client's 2 s request timeout.
 */
async function inBatches<T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let from = 0; from < count; from += 5) {
    made.push(...(await Promise.all(Array.from({ length: Math.min(5, count - from) }, (_, i) => make(from + i)))));
  }
  return made;
}

let admin: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
});

describe('behaviour ADMIN-21: a search examines whole chunks of the clients list', () => {
  const rare = new Set([10, 130, 250]);
  let ids: string[];
  beforeAll(async () => {
    ids = (await inBatches(260, (i) => createClient({ name: rare.has(i) ? `Needle ${i}` : `Bulk ${i}`, createdAt: future(i) }))).map(
      (client) => client.clientId,
    );
  }, 120_000);

  const list = (query: Record<string, string>) => callAdmin(listClients, { token: admin, query });

  it('finds 3 matches spread across 260 clients in one answer, in at most 3 reads of the list', async () => {
    const faults = DynamoFaults.install();
    let page: Listed;
    try {
      page = listed(await list({ search: 'needle', limit: '25' }));
    } finally {
      faults.uninstall();
    }
    expect(page.items.map((item) => item.client_id)).toEqual([ids[250], ids[130], ids[10]]);
    expect(page.next_cursor).toBeUndefined();
    const listReads = faults.attempts.filter((attempt) => attempt.operation === 'Query' && attempt.input.IndexName === 'gsi1');
    expect(listReads.length).toBeLessThanOrEqual(3);
  });

  it('pages a search with more matches than a page: every match exactly once, newest first', async () => {
    // "Bulk 1" is in the names of clients 1, 10..19 and 100..199 (10 is a needle): 110 matches.
    const wanted = ids.filter((_, i) => !rare.has(i) && `Bulk ${i}`.includes('Bulk 1')).reverse();
    const { items, pages } = await allPages(async (cursor) =>
      listed(await list({ search: 'bulk 1', limit: '7', ...(cursor ? { cursor } : {}) })),
    );
    expect(items.map((item) => item.client_id)).toEqual(wanted);
    expect(pages).toBe(Math.ceil(wanted.length / 7));
  });
});

describe('behaviour ADMIN-22: a filtered users list pages every match exactly once', () => {
  let admins: string[];
  let environmentId: string;
  beforeAll(async () => {
    environmentId = await createEnvironment('Crowd');
    const users = await inBatches(150, (i) =>
      createUser({ name: `Person ${i}`, admin: i % 10 === 3, createdAt: future(i), environments: [environmentId] }),
    );
    admins = users.filter((user) => user.admin).map((user) => user.id);
  }, 120_000);

  it('admin=true paged by 4 across chunks of 100: the 15 admins, newest first, none repeated', async () => {
    const { items } = await allPages(async (cursor) =>
      listed(await callAdmin(listUsers, { token: admin, query: { admin: 'true', limit: '4', ...(cursor ? { cursor } : {}) } })),
    );
    expect(items.map((item) => item.id)).toEqual([...admins].reverse());
  });

  it("environment_id with admin=true paged by 4, from the environment's grants in chunks: each admin once, by user id", async () => {
    const { items } = await allPages(async (cursor) =>
      listed(
        await callAdmin(listUsers, {
          token: admin,
          query: { environment_id: environmentId, admin: 'true', limit: '4', ...(cursor ? { cursor } : {}) },
        }),
      ),
    );
    expect(items.map((item) => item.id)).toEqual([...admins].sort());
  });
});

describe("behaviour ADMIN-23: a client's keys by status page every match exactly once", () => {
  let clientId: string;
  let active: string[];
  let own: string;
  beforeAll(async () => {
    const client = await createClient({ scopes: ['read'] });
    clientId = client.clientId;
    const user = await createUser({ environments: [client.environmentId] });
    const keyIds: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { status, body } = await createKeyAs(admin, clientId, { userId: user.id, name: `key ${i}` });
      if (status !== 201) throw new Error(JSON.stringify(body));
      keyIds.push(String(body.key_id));
      // A millisecond apart, their order is their creation's.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await revokeKeyAs(admin, clientId, keyIds[1]!);
    await revokeKeyAs(admin, clientId, keyIds[4]!);
    active = [keyIds[5]!, keyIds[3]!, keyIds[2]!, keyIds[0]!];
    own = (await issueAccessToken({ clientId, sub: user.id, scopes: ['read'] })).token;
  });

  it('status=active paged by 1: each active key once, newest first', async () => {
    const { items } = await allPages(
      async (cursor) => (await listKeysAs(admin, clientId, { status: 'active', limit: '1', ...(cursor ? { cursor } : {}) })).body as Listed,
    );
    expect(items.map((item) => item.key_id)).toEqual(active);
  });

  it("a self-service caller's own keys by status, paged by 1 (read from its index entries): each once, newest first", async () => {
    const { items } = await allPages(
      async (cursor) => (await listKeysAs(own, clientId, { status: 'active', limit: '1', ...(cursor ? { cursor } : {}) })).body as Listed,
    );
    expect(items.map((item) => item.key_id)).toEqual(active);
  });
});
