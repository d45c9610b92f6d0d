/**
 * The admin lists' search, filters and order (behaviour ADMIN-21..ADMIN-23, LOG-15): newest
 * first, paged without loss or repeats, an exact id or address found by one read, a part of a
 * name by the bounded list read; every bad value a 400 naming the parameter.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { AdminAuditEntry } from '../../lambdas/core/model';
import { handler as listAudit } from '../../lambdas/handlers/admin/audit-list';
import { handler as listClients } from '../../lambdas/handlers/admin/clients-list';
import { handler as listUsers } from '../../lambdas/handlers/admin/users-list';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { callAdmin } from '../support/admin-calls';
import { createKeyAs, listKeysAs, revokeKeyAs } from '../support/api-keys';
import { jsonBody } from '../support/events';
import { adminClientToken, createClient, createEnvironment, createUser } from '../support/fixtures';

type Listed = { items: Record<string, unknown>[]; next_cursor?: string };

let admin: string;
beforeAll(async () => {
  admin = (await adminClientToken()).token;
});

const listed = (response: APIGatewayProxyResult) => jsonBody(response) as unknown as Listed;

/** Every page until `wanted` items are seen or the list ends; the list may hold other tests' records after ours. */
async function pagesUntil(call: (cursor?: string) => Promise<Listed>, wanted: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const page = await call(cursor);
    items.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor || items.length >= wanted) return items;
  }
  throw new Error('more than 200 pages');
}

/** Times later than anything other tests write, one per index, so the order is known. */
const future = (tag: number, index: number) => new Date(Date.UTC(2090, 0, 1, tag, index)).toISOString();

describe('behaviour ADMIN-21: GET /api/admin/clients search and filters', () => {
  const marker = `Lists${randomUUID().slice(0, 8)}`;
  let environmentId: string;
  let ids: string[];
  beforeAll(async () => {
    environmentId = await createEnvironment();
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await createClient({
          environmentId,
          name: `${marker} app ${i}`,
          createdAt: future(1, i),
          ...(i === 4 ? { kind: 'app' as const } : {}),
        }),
      );
    }
    ids = made.map((client) => client.clientId);
  });

  const list = (query: Record<string, string>) => callAdmin(listClients, { token: admin, query });

  it('lists newest first, paged by 2 without loss or repeats (environment_id filter)', async () => {
    const items = await pagesUntil(
      async (cursor) => listed(await list({ environment_id: environmentId, limit: '2', ...(cursor ? { cursor } : {}) })),
      5,
    );
    expect(items.map((item) => item.client_id)).toEqual([...ids].reverse());
  });

  it('finds a client by its exact id, whatever the registration_type browsed', async () => {
    const page = listed(await list({ search: ids[2]!, registration_type: 'dynamic' }));
    expect(page.items.map((item) => item.client_id)).toEqual([ids[2]]);
    expect(page.next_cursor).toBeUndefined();
  });

  it('finds clients by a part of the name, in any case', async () => {
    const items = await pagesUntil(
      async (cursor) => listed(await list({ search: `${marker.toLowerCase()} APP 3`, ...(cursor ? { cursor } : {}) })),
      1,
    );
    expect(items.map((item) => item.client_id)).toEqual([ids[3]]);
  });

  it('filters by type: public or confidential', async () => {
    const publicOnes = await pagesUntil(
      async (cursor) => listed(await list({ environment_id: environmentId, type: 'public', ...(cursor ? { cursor } : {}) })),
      5,
    );
    expect(publicOnes.map((item) => item.client_id)).toEqual([ids[4]]);
    const confidential = await pagesUntil(
      async (cursor) => listed(await list({ environment_id: environmentId, type: 'confidential', ...(cursor ? { cursor } : {}) })),
      5,
    );
    expect(confidential.map((item) => item.client_id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
  });

  it('an exact id that does not fit the filters finds nothing', async () => {
    const page = listed(await list({ search: ids[0]!, type: 'public' }));
    expect(page.items).toEqual([]);
  });

  it.each([
    [{ type: 'static' }, /^type: /],
    [{ environment_id: 'has space' }, /^environment_id: /],
    [{ search: '   ' }, /^search: /],
    [{ search: 'x'.repeat(201) }, /^search: /],
    [{ registration_type: 'both' }, /^registration_type: /],
  ])('refuses %j with 400 invalid_request naming the parameter', async (query, description) => {
    const response = await list(query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(jsonBody(response)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(description) });
  });
});

describe('behaviour ADMIN-22: GET /api/admin/users search and filters', () => {
  const marker = `Lists${randomUUID().slice(0, 8)}`;
  let environmentId: string;
  let users: Awaited<ReturnType<typeof createUser>>[];
  beforeAll(async () => {
    environmentId = await createEnvironment();
    users = [];
    for (let i = 0; i < 4; i++) {
      users.push(
        await createUser({ name: `${marker} person ${i}`, createdAt: future(2, i), admin: i === 1, environments: [environmentId] }),
      );
    }
  });

  const list = (query: Record<string, string>) => callAdmin(listUsers, { token: admin, query });

  it('lists newest first, paged by 1 without loss or repeats (search by a part of the name)', async () => {
    const items = await pagesUntil(async (cursor) => listed(await list({ search: marker, limit: '1', ...(cursor ? { cursor } : {}) })), 4);
    expect(items.map((item) => item.id)).toEqual(users.map((user) => user.id).reverse());
  });

  it('finds a user by address (any case) and by exact id', async () => {
    const byAddress = listed(await list({ search: users[2]!.email!.toUpperCase() }));
    expect(byAddress.items.map((item) => item.id)).toEqual([users[2]!.id]);
    const byId = listed(await list({ search: users[3]!.id }));
    expect(byId.items.map((item) => item.id)).toEqual([users[3]!.id]);
  });

  it('filters by environment (paged by its grants) and by admin role', async () => {
    const inEnvironment = await pagesUntil(
      async (cursor) => listed(await list({ environment_id: environmentId, limit: '3', ...(cursor ? { cursor } : {}) })),
      4,
    );
    expect(inEnvironment.map((item) => item.id).sort()).toEqual(users.map((user) => user.id).sort());
    const admins = listed(await list({ environment_id: environmentId, admin: 'true' }));
    expect(admins.items.map((item) => item.id)).toEqual([users[1]!.id]);
    const others = await pagesUntil(
      async (cursor) => listed(await list({ search: marker, admin: 'false', ...(cursor ? { cursor } : {}) })),
      3,
    );
    expect(others.map((item) => item.id)).toEqual([users[3]!.id, users[2]!.id, users[0]!.id]);
  });

  it('an address of a user outside the environment asked for finds nothing', async () => {
    const elsewhere = await createEnvironment();
    expect(listed(await list({ search: users[0]!.email!, environment_id: elsewhere })).items).toEqual([]);
  });

  it.each([
    [{ admin: 'yes' }, /^admin: /],
    [{ environment_id: 'a/b' }, /^environment_id: /],
    [{ search: '' }, /^search: /],
    [{ search: 'x'.repeat(255) }, /^search: /],
  ])('refuses %j with 400 invalid_request naming the parameter', async (query, description) => {
    const response = await list(query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(jsonBody(response)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(description) });
  });
});

describe('behaviour ADMIN-23: GET /api/admin/clients/{client_id}/api-keys status and order', () => {
  let clientId: string;
  let keyIds: string[];
  beforeAll(async () => {
    const client = await createClient({ scopes: ['read'] });
    clientId = client.clientId;
    const user = await createUser({ environments: [client.environmentId] });
    keyIds = [];
    for (let i = 0; i < 3; i++) {
      const { status, body } = await createKeyAs(admin, clientId, { userId: user.id, name: `key ${i}` });
      if (status !== 201) throw new Error(JSON.stringify(body));
      keyIds.push(String(body.key_id));
      // Keys made in one millisecond sort by id: a millisecond apart, their order is their creation's.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await revokeKeyAs(admin, clientId, keyIds[1]!);
  });

  it('lists newest first, paged by 1 without loss or repeats', async () => {
    const items = await pagesUntil(
      async (cursor) => (await listKeysAs(admin, clientId, { limit: '1', ...(cursor ? { cursor } : {}) })).body as Listed,
      3,
    );
    expect(items.map((item) => item.key_id)).toEqual([...keyIds].reverse());
  });

  it('filters by status: active, revoked, expired', async () => {
    expect(((await listKeysAs(admin, clientId, { status: 'active' })).body as Listed).items.map((item) => item.key_id)).toEqual([
      keyIds[2],
      keyIds[0],
    ]);
    expect(((await listKeysAs(admin, clientId, { status: 'revoked' })).body as Listed).items.map((item) => item.key_id)).toEqual([
      keyIds[1],
    ]);
    expect(((await listKeysAs(admin, clientId, { status: 'expired' })).body as Listed).items).toEqual([]);
  });

  it('refuses an unknown status with 400 invalid_request naming it', async () => {
    const { status, body } = await listKeysAs(admin, clientId, { status: 'deleted' });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/^status: /) });
  });
});

describe('behaviour LOG-15: GET /api/admin/audit by actor and subject', () => {
  // A day no other test writes to: the audit log is one log for the whole table.
  const at = (hour: number) => `2025-06-11T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const alice = { kind: 'admin-user', userId: 'usr_lists_alice' } as const;
  const robot = { kind: 'admin-client', clientId: 'tgc_lists_robot' } as const;
  const entries: AdminAuditEntry[] = [
    { type: 'client.create', clientId: 'tgc_lists_c1', actor: alice, at: at(1) },
    { type: 'user.update', userId: 'usr_lists_u1', actor: robot, at: at(2) },
    { type: 'api_key.create', clientId: 'tgc_lists_c1', keyId: 'key_lists_k1', userId: 'usr_lists_u1', actor: robot, at: at(3) },
    { type: 'scope.create', scope: 'lists:read', actor: alice, at: at(4) },
  ];
  beforeAll(async () => {
    await Promise.all(entries.map((entry) => getAuditLog().record(entry)));
  });

  const list = (query: Record<string, string>) => callAdmin(listAudit, { token: admin, query: { from: at(0), to: at(23), ...query } });
  const times = async (query: Record<string, string>) => listed(await list(query)).items.map((item) => item.at);

  it('filters by actor: a user id or a client id', async () => {
    expect(await times({ actor: 'usr_lists_alice' })).toEqual([at(4), at(1)]);
    expect(await times({ actor: 'tgc_lists_robot' })).toEqual([at(3), at(2)]);
  });

  it('filters by subject: any id an entry is about, or a scope', async () => {
    expect(await times({ subject: 'tgc_lists_c1' })).toEqual([at(3), at(1)]);
    expect(await times({ subject: 'usr_lists_u1' })).toEqual([at(3), at(2)]);
    expect(await times({ subject: 'key_lists_k1' })).toEqual([at(3)]);
    expect(await times({ subject: 'lists:read' })).toEqual([at(4)]);
  });

  it('combines actor, subject and type, paged by 1 without loss or repeats', async () => {
    expect(await times({ actor: 'tgc_lists_robot', subject: 'usr_lists_u1', type: 'api_key' })).toEqual([at(3)]);
    const items = await pagesUntil(
      async (cursor) => listed(await list({ subject: 'usr_lists_u1', limit: '1', ...(cursor ? { cursor } : {}) })),
      9,
    );
    expect(items.map((item) => item.at)).toEqual([at(3), at(2)]);
  });

  it.each([
    [{ actor: ' ' }, /^actor: /],
    [{ subject: 'x'.repeat(201) }, /^subject: /],
  ])('refuses %j with 400 invalid_request naming the parameter', async (query, description) => {
    const response = await list(query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(jsonBody(response)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(description) });
  });
});
