/**
 * The dashboard's lists through its handler (behaviour DASH-10..DASH-12, DASH-18): search and filters as
 * the admin API's, pages whose links keep them, empty states, names in place of ids, and a bad
 * filter value as the error page (DASH-4), never a 500.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { apiKeyItem, userKeyIndexItem } from '../../lambdas/adapters/dynamodb/api-key-items';
import type { ApiKey, User } from '../../lambdas/core/model';
import { getApiKeyStore } from '../../lambdas/wiring/api-keys';
import { getStorage } from '../../lambdas/wiring/storage';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { dashboardSessionOf } from '../support/dashboard-calls';
import { handler } from '../support/dashboard-handler';
import { DynamoFaults } from '../support/dynamo-faults';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { createKeyAs, revokeKeyAs } from '../support/api-keys';
import { adminClientToken, createClient, createEnvironment, createUser } from '../support/fixtures';
import { useOwnTables } from '../support/own-tables';

// A search reads a bounded stretch of the list per page (behaviour ADMIN-21): in tables of its own
// this file knows every list's length, whatever the other files running beside it write.
useOwnTables();

let admin: User;
let cookie: string;
beforeAll(async () => {
  admin = await createUser({ admin: true, test: false, name: 'Lists admin' });
  cookie = (await dashboardSessionOf(admin)).cookie;
});

async function page(path: string, query: Record<string, string> = {}) {
  const response = await handler(
    apiGatewayEvent({
      method: 'GET',
      path,
      resource: '/dashboard/{proxy+}',
      headers: { Accept: 'text/html', Cookie: cookie },
      pathParameters: { proxy: path.replace(/^\/dashboard\//, '') },
      query,
    }),
    lambdaContext,
  );
  return { status: response.statusCode, body: response.body };
}

/** The rows of a table, as text without tags. */
const rowsOf = (body: string, tableId: string) => {
  const table = new RegExp(`<table id="${tableId}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(body)?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((match) =>
    match[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
};

const linkOf = (body: string, rel: 'next' | 'first') => {
  const href = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(body)?.[1];
  return href === undefined ? undefined : new URL(href.replace(/&amp;/g, '&'), 'https://auth.example.test');
};

/** A time later than anything other tests write, so the order is known. */
const future = (index: number) => new Date(Date.UTC(2091, 0, 1, 0, index)).toISOString();

describe('behaviour DASH-10, DASH-11, DASH-12: the clients list', () => {
  const marker = `Dash${randomUUID().slice(0, 8)}`;
  let environmentId: string;
  let environmentName: string;
  let ids: string[];
  beforeAll(async () => {
    environmentName = `Env ${marker}`;
    environmentId = await createEnvironment(environmentName);
    ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await createClient({ environmentId, name: `${marker} ${i}`, createdAt: future(i), ...(i === 1 ? { kind: 'app' as const } : {}) }))
          .clientId,
      );
    }
  });

  it('searches by a part of the name, newest first, and shows the environment by name with the client id to copy', async () => {
    const { status, body } = await page('/dashboard/clients', { search: marker });
    expect(status).toBe(200);
    const rows = rowsOf(body, 'clients');
    expect(rows.map((row) => ids.find((id) => row.includes(id)))).toEqual([...ids].reverse());
    expect(rows[0]).toContain(environmentName);
    expect(body).toContain(`<code>${ids[2]}</code>`);
    expect(body).toContain(`<input id="search" name="search" type="search" maxlength="254" value="${marker}">`);
  });

  it('filters by environment and type together; a forged cursor is the 400 error page', async () => {
    const filtered = await page('/dashboard/clients', { environment_id: environmentId, type: 'confidential' });
    expect(rowsOf(filtered.body, 'clients').map((row) => ids.find((id) => row.includes(id)))).toEqual([ids[2], ids[0]]);
    expect(linkOf(filtered.body, 'next')).toBeUndefined();
    expect((await page('/dashboard/clients', { search: marker, cursor: 'bm90LWEtY3Vyc29y' })).status).toBe(400);
  });

  it('says when nothing matches the filters', async () => {
    const { body } = await page('/dashboard/clients', { search: `${marker}-none` });
    expect(rowsOf(body, 'clients')).toEqual([]);
    expect(body).toContain('No static clients match these filters.');
  });

  it('still opens the dynamic list from the older ?type=dynamic address (DASH-12)', async () => {
    const { status, body } = await page('/dashboard/clients', { type: 'dynamic' });
    expect(status).toBe(200);
    expect(body).toContain('<strong>Dynamic (self-registered)</strong>');
  });

  it.each([
    [{ type: 'robot' }, /type/],
    [{ environment_id: 'a b' }, /environment_id/],
    [{ registration: 'both' }, /registration/],
  ])('a bad filter %j is the 400 error page naming it, never a 500 (DASH-4)', async (query, named) => {
    const { status, body } = await page('/dashboard/clients', query);
    expect(status).toBe(400);
    expect(body).toMatch(named);
  });
});

describe('behaviour DASH-10: the users list', () => {
  const marker = `Dash${randomUUID().slice(0, 8)}`;
  let users: User[];
  beforeAll(async () => {
    users = [];
    for (let i = 0; i < 27; i++) users.push(await createUser({ name: `${marker} ${String(i).padStart(2, '0')}`, createdAt: future(i) }));
  });

  it('pages a search of 27 users by 25: Next page keeps the search, the last page offers First page, nothing lost or repeated', async () => {
    const first = await page('/dashboard/users', { search: marker });
    const firstRows = rowsOf(first.body, 'users');
    expect(firstRows).toHaveLength(25);
    const next = linkOf(first.body, 'next')!;
    expect(next.searchParams.get('search')).toBe(marker);
    expect(linkOf(first.body, 'first')).toBeUndefined();
    const second = await page('/dashboard/users', Object.fromEntries(next.searchParams));
    const secondRows = rowsOf(second.body, 'users');
    expect(linkOf(second.body, 'first')!.search).toBe(`?search=${marker}`);
    const order = [...firstRows, ...secondRows].map((row) => users.find((user) => row.includes(user.id))?.id);
    expect(order).toEqual(users.map((user) => user.id).reverse());
  });

  it('finds a user by address and filters by role', async () => {
    const byAddress = await page('/dashboard/users', { search: users[3]!.email! });
    expect(rowsOf(byAddress.body, 'users')).toHaveLength(1);
    expect(rowsOf(byAddress.body, 'users')[0]).toContain(users[3]!.id);
    const admins = await page('/dashboard/users', { search: marker, admin: 'true' });
    expect(rowsOf(admins.body, 'users')).toEqual([]);
    expect(admins.body).toContain('No users match these filters.');
  });

  it('a bad role is the 400 error page naming it', async () => {
    const { status, body } = await page('/dashboard/users', { admin: 'maybe' });
    expect(status).toBe(400);
    expect(body).toMatch(/admin/);
  });
});

describe('behaviour DASH-11: the audit log names the actor and the subject', () => {
  const at = '2025-06-12T10:00:00.000Z';
  let client: Awaited<ReturnType<typeof createClient>>;
  beforeAll(async () => {
    client = await createClient({ name: `Audited ${randomUUID().slice(0, 6)}` });
    await getAuditLog().record({ type: 'client.update', clientId: client.clientId, actor: { kind: 'admin-user', userId: admin.id }, at });
  });

  it('shows the admin by address and the client by name, their ids beneath; filters by actor and subject', async () => {
    const { body } = await page('/dashboard/audit', {
      from: '2025-06-12T00:00:00Z',
      to: '2025-06-12T23:00:00Z',
      actor: admin.id,
      subject: client.clientId,
    });
    const rows = rowsOf(body, 'audit');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(`admin ${admin.email} ${admin.id}`);
    expect(rows[0]).toContain(`client ${client.name} ${client.clientId}`);
    const none = await page('/dashboard/audit', { from: '2025-06-12T00:00:00Z', to: '2025-06-12T23:00:00Z', actor: 'usr_nobody' });
    expect(rowsOf(none.body, 'audit')).toEqual([]);
    expect(none.body).toContain('No entries in this range match these filters.');
  });
});

describe("behaviour DASH-10, DASH-11, ADMIN-23: a client's API keys page", () => {
  let clientId: string;
  let user: User;
  const keyIds: string[] = [];
  beforeAll(async () => {
    const token = (await adminClientToken()).token;
    const client = await createClient({ scopes: ['read'] });
    clientId = client.clientId;
    user = await createUser({ environments: [client.environmentId] });
    for (let i = 0; i < 3; i++) {
      keyIds.push(String((await createKeyAs(token, clientId, { userId: user.id, name: `key ${i}` })).body.key_id));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await revokeKeyAs(token, clientId, keyIds[0]!);
  });

  it("lists newest first with each key's user by address, and filters by status", async () => {
    const all = await page(`/dashboard/clients/${clientId}/api-keys`);
    expect(all.status).toBe(200);
    const rows = rowsOf(all.body, 'keys');
    expect(rows.map((row) => keyIds.find((id) => row.includes(id)))).toEqual([...keyIds].reverse());
    expect(rows[0]).toContain(`${user.email} ${user.id}`);
    const revoked = await page(`/dashboard/clients/${clientId}/api-keys`, { status: 'revoked' });
    expect(rowsOf(revoked.body, 'keys').map((row) => keyIds.find((id) => row.includes(id)))).toEqual([keyIds[0]]);
    const expired = await page(`/dashboard/clients/${clientId}/api-keys`, { status: 'expired' });
    expect(expired.body).toContain('No API keys match these filters.');
  });

  it('a bad status is the 400 error page; an unknown client the 404 page', async () => {
    expect((await page(`/dashboard/clients/${clientId}/api-keys`, { status: 'lost' })).status).toBe(400);
    expect((await page('/dashboard/clients/tgc_nosuchclient/api-keys')).status).toBe(404);
  });
});

describe("behaviour DASH-10, DASH-11, LOG-16: a client's token activity page", () => {
  it("lists newest first, each request's user by address; an empty filter says so", async () => {
    const client = await createClient();
    const user = await createUser();
    const row = (minute: number, success: boolean) => ({
      requestType: 'client_credentials' as const,
      clientId: client.clientId,
      ip: '203.0.113.7',
      success,
      durationMs: 9,
      startedAt: `2026-04-02T10:0${minute}:00.000Z`,
      at: `2026-04-02T10:0${minute}:00.000Z`,
      attemptId: randomUUID(),
      userId: user.id,
      ...(success ? {} : { reason: 'invalid_client: bad secret' }),
    });
    await Promise.all([row(1, true), row(2, false), row(3, true)].map((r) => getTokenStore().recordActivity(r)));
    const { status, body } = await page(`/dashboard/clients/${client.clientId}/activity`);
    expect(status).toBe(200);
    const rows = rowsOf(body, 'activity');
    expect(rows.map((text) => /2026-04-02T10:0(\d)/.exec(text)?.[1])).toEqual(['3', '2', '1']);
    expect(rows[1]).toContain(user.email);
    const none = await page(`/dashboard/clients/${client.clientId}/activity`, { request_type: 'api key' });
    expect(none.body).toContain('No token requests match these filters.');
  });
});

describe("behaviour DASH-18: a user's API keys on the user's page", () => {
  let token: string;
  beforeAll(async () => {
    token = (await adminClientToken()).token;
  });

  /** A copy of a stored key under another id and time, with its index item, as a create writes them both. */
  async function storeCopy(key: ApiKey, keyId: string, changes: Partial<ApiKey>): Promise<void> {
    const copy: ApiKey = { ...key, keyId, ...changes };
    const { db, tables } = getStorage();
    await db.send(new PutCommand({ TableName: tables.main, Item: apiKeyItem(copy) }));
    await db.send(new PutCommand({ TableName: tables.main, Item: userKeyIndexItem(copy) }));
  }

  it("lists them across clients, newest first, with the client's name, the status and a link to the client's keys page; never a secret", async () => {
    const alpha = await createClient({ scopes: ['read'], name: 'Alpha app' });
    const beta = await createClient({ scopes: ['read'], name: 'Beta app', environmentId: alpha.environmentId });
    const user = await createUser({ environments: [alpha.environmentId] });
    const made: { keyId: string; secret: string }[] = [];
    for (const client of [alpha, beta, alpha]) {
      const body = (await createKeyAs(token, client.clientId, { userId: user.id })).body;
      made.push({ keyId: String(body.key_id), secret: String(body.key) });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await revokeKeyAs(token, alpha.clientId, made[0]!.keyId);
    const expiredId = 'ef'.repeat(8);
    await storeCopy((await getApiKeyStore().get(made[1]!.keyId))!, expiredId, {
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });

    const shown = await page(`/dashboard/users/${user.id}`);
    expect(shown.status).toBe(200);
    const rows = rowsOf(shown.body, 'user-keys');
    expect(rows.map((row) => row.split(' ')[0])).toEqual([expiredId, made[2]!.keyId, made[1]!.keyId, made[0]!.keyId]);
    expect(rows[0]).toMatch(new RegExp(`Beta app ${beta.clientId} expired`));
    expect(rows[1]).toMatch(new RegExp(`Alpha app ${alpha.clientId} active`));
    expect(rows[3]).toMatch(/ revoked /);
    expect(shown.body).toContain(`href="/dashboard/clients/${beta.clientId}/api-keys"`);
    expect(shown.body).not.toContain('id="user-keys-more"');
    for (const { secret } of made) expect(shown.body).not.toContain(secret);
    expect(shown.body).not.toMatch(/argon2/);
  });

  it('shows the 25 newest with a "more" note, read with one consistent BatchGetItem after the user\'s own partition', async () => {
    const client = await createClient({ scopes: ['read'], name: 'Busy app' });
    const user = await createUser({ environments: [client.environmentId] });
    const first = String((await createKeyAs(token, client.clientId, { userId: user.id })).body.key_id);
    const stored = (await getApiKeyStore().get(first))!;
    const base = Date.parse(stored.createdAt);
    const ids = Array.from({ length: 26 }, (_, i) => (i + 1).toString(16).padStart(16, '0'));
    await Promise.all(ids.map((id, i) => storeCopy(stored, id, { createdAt: new Date(base + (i + 1) * 1000).toISOString() })));

    const faults = DynamoFaults.install();
    let shown: Awaited<ReturnType<typeof page>>;
    try {
      shown = await page(`/dashboard/users/${user.id}`);
    } finally {
      faults.uninstall();
    }
    expect(shown.status).toBe(200);
    const rows = rowsOf(shown.body, 'user-keys');
    expect(rows.map((row) => row.split(' ')[0])).toEqual([...ids].reverse().slice(0, 25));
    expect(shown.body).toContain('id="user-keys-more"');
    const batches = faults.attempts.filter((attempt) => attempt.operation === 'BatchGetItem');
    expect(batches).toHaveLength(1);
    expect(JSON.stringify(batches[0]!.input)).toContain('"ConsistentRead":true');
  });

  it('a user without keys: "No API keys."', async () => {
    const user = await createUser();
    const shown = await page(`/dashboard/users/${user.id}`);
    expect(shown.body).toContain('<p id="user-keys-none">No API keys.</p>');
  });
});
