/**
 * The admin log listings: a client's token activity (behaviour LOG-8; filtered by time,
 * request type and outcome, paged across the 16 activity shards) and the admin audit log
 * (behaviour LOG-9; newest first, by time range and type, paged across days). Bad input is a 400
 * naming the parameter, never a 500; non-admin callers are refused.
 */
import { randomUUID } from 'node:crypto';
import type { ActivityRow, AdminAuditEntry } from '../../lambdas/core/model';
import { handler as listActivity } from '../../lambdas/handlers/admin/activity-list';
import { handler as listAudit } from '../../lambdas/handlers/admin/audit-list';
import { handler as createEnvironment } from '../../lambdas/handlers/admin/environments-create';
import { handler as updateUser } from '../../lambdas/handlers/admin/users-update';
import { getAuditLog } from '../../lambdas/wiring/audit';
import { getTokenStore } from '../../lambdas/wiring/repositories';
import { callAdmin } from '../support/admin-calls';
import { createKeyAs } from '../support/api-keys';
import { adminClientToken, createClient, createUser, issueAccessToken } from '../support/fixtures';

let admin: string;
let adminClientId: string;
beforeAll(async () => {
  const made = await adminClientToken();
  admin = made.token;
  adminClientId = made.client.clientId;
});

const json = (response: { body: string }) => JSON.parse(response.body) as Record<string, unknown>;
type Listed = { items: Record<string, unknown>[]; next_cursor?: string };

function activityRow(clientId: string, startedAt: string, fields: Partial<ActivityRow>): ActivityRow {
  return {
    requestType: 'client_credentials',
    clientId,
    ip: '203.0.113.9',
    success: true,
    durationMs: 12,
    startedAt,
    attemptId: randomUUID(),
    at: startedAt,
    ...fields,
  };
}

async function allPages(call: (cursor?: string) => Promise<Listed>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await call(cursor);
    items.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor) return items;
  }
  throw new Error('more than 50 pages');
}

describe('behaviour LOG-8: GET /api/admin/clients/{client_id}/activity', () => {
  let clientId: string;
  const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
  beforeAll(async () => {
    clientId = (await createClient()).clientId;
    const rows = [
      activityRow(clientId, at(1), {}),
      activityRow(clientId, at(2), { requestType: 'api key', success: false, reason: 'invalid_grant: key revoked', apiKeyId: 'k1' }),
      activityRow(clientId, at(3), { requestType: 'api key', success: true, apiKeyId: 'k1' }),
      activityRow(clientId, at(4), { success: false, reason: 'invalid_client: bad secret' }),
      activityRow(clientId, at(5), { requestType: 'api key', success: false, reason: 'invalid_grant: key expired', apiKeyId: 'k2' }),
      activityRow(clientId, at(6), {}),
    ];
    await Promise.all(rows.map((row) => getTokenStore().recordActivity(row)));
  });

  const list = async (query: Record<string, string>) =>
    callAdmin(listActivity, {
      token: admin,
      path: `/api/admin/clients/${clientId}/activity`,
      pathParameters: { client_id: clientId },
      query,
    });

  it('lists every row newest first (behaviour LOG-16), with the real failure reason, across pages of 2 without repeats', async () => {
    const items = await allPages(async (cursor) => json(await list({ limit: '2', ...(cursor ? { cursor } : {}) })) as Listed);
    expect(items.map((item) => item.at)).toEqual([at(6), at(5), at(4), at(3), at(2), at(1)]);
    expect(items[4]).toMatchObject({ request_type: 'api key', success: false, reason: 'invalid_grant: key revoked', api_key_id: 'k1' });
  });

  it('filters by request type and outcome, paged: only the failed key exchanges', async () => {
    const items = await allPages(
      async (cursor) =>
        json(await list({ request_type: 'api key', success: 'false', limit: '1', ...(cursor ? { cursor } : {}) })) as Listed,
    );
    expect(items.map((item) => item.reason)).toEqual(['invalid_grant: key expired', 'invalid_grant: key revoked']);
  });

  it('filters by time range (inclusive bounds)', async () => {
    const response = await list({ from: at(3), to: at(5) });
    expect(response.statusCode).toBe(200);
    expect((json(response) as Listed).items.map((item) => item.at)).toEqual([at(5), at(4), at(3)]);
  });

  it.each([
    [{ request_type: 'password' }, /^request_type: /],
    [{ success: 'yes' }, /^success: /],
    [{ from: 'yesterday' }, /^from: /],
    [{ from: at(5), to: at(1) }, /^from: must not be later than to/],
    [{ limit: '0' }, /^limit: /],
    [{ cursor: 'bm90LWEtY3Vyc29y' }, /^cursor: /],
  ])('refuses %j with 400 invalid_request naming the parameter', async (query, description) => {
    const response = await list(query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(description) });
  });

  it('answers 404 not_found for an unknown client, as every client route does (behaviour LOG-16)', async () => {
    const unknown = `tgc_unknown${randomUUID().slice(0, 8)}`;
    const response = await callAdmin(listActivity, { token: admin, pathParameters: { client_id: unknown } });
    expect(response.statusCode).toBe(404);
    expect(json(response)).toMatchObject({ error: 'not_found', error_description: `No client "${unknown}".` });
  });

  it('refuses a non-admin token with 403, and no token with 401 (behaviour ADMIN-1)', async () => {
    const client = await createClient({ scopes: ['read'] });
    const { token } = await issueAccessToken({ clientId: client.clientId, scopes: ['read'] });
    const refused = await callAdmin(listActivity, { token, pathParameters: { client_id: clientId } });
    expect(refused.statusCode).toBe(403);
    expect((await callAdmin(listActivity, { pathParameters: { client_id: clientId } })).statusCode).toBe(401);
  });
});

describe('behaviour LOG-9: GET /api/admin/audit', () => {
  // Days no other test writes to: the audit log is one log for the whole table.
  const day = (d: number, time = '12:00:00.000') => `2025-05-${String(d).padStart(2, '0')}T${time}Z`;
  const actor = { kind: 'admin-user', userId: 'audit-test-admin' } as const;
  const entries: AdminAuditEntry[] = [
    { type: 'client.create', clientId: 'c-audit-1', actor, at: day(2) },
    { type: 'user.create', userId: 'u-audit-1', actor, at: day(3, '08:00:00.000') },
    { type: 'user.update', userId: 'u-audit-1', reason: 'name', actor, at: day(3, '09:00:00.000') },
    { type: 'environment.create', environmentId: 'e-audit', actor, at: day(5) },
    { type: 'client.delete', clientId: 'c-audit-1', actor, at: day(6) },
  ];
  beforeAll(async () => {
    await Promise.all(entries.map((entry) => getAuditLog().record(entry)));
  });

  const list = async (query: Record<string, string>) => callAdmin(listAudit, { token: admin, path: '/api/admin/audit', query });

  it('lists the range newest first across days, paged by 2 without repeats, with the admin as actor', async () => {
    const items = await allPages(
      async (cursor) => json(await list({ from: day(1), to: day(7), limit: '2', ...(cursor ? { cursor } : {}) })) as Listed,
    );
    expect(items.map((item) => item.type)).toEqual(['client.delete', 'environment.create', 'user.update', 'user.create', 'client.create']);
    expect(items[2]).toMatchObject({ user_id: 'u-audit-1', reason: 'name', actor: { type: 'admin-user', user_id: 'audit-test-admin' } });
  });

  it('filters by one type or by a family, and by time (inclusive bounds)', async () => {
    const byFamily = json(await list({ from: day(1), to: day(7), type: 'client' })) as Listed;
    expect(byFamily.items.map((item) => item.type)).toEqual(['client.delete', 'client.create']);
    const byType = json(await list({ from: day(1), to: day(7), type: 'user.create' })) as Listed;
    expect(byType.items.map((item) => item.user_id)).toEqual(['u-audit-1']);
    const byTime = json(await list({ from: day(3, '09:00:00.000'), to: day(5) })) as Listed;
    expect(byTime.items.map((item) => item.type)).toEqual(['environment.create', 'user.update']);
  });

  it('shows the api_key.create entry written with the key (behaviour LOG-4), in the default range (last 7 days)', async () => {
    const client = await createClient({ scopes: ['read'] });
    const user = await createUser();
    const created = await createKeyAs(admin, client.clientId, { userId: user.id });
    const listed = json(await list({ type: 'api_key' })) as Listed;
    expect(listed.items).toContainEqual(
      expect.objectContaining({
        type: 'api_key.create',
        key_id: created.body.key_id,
        actor: { type: 'admin-client', client_id: adminClientId },
      }),
    );
  });

  it.each([
    [{ type: 'password.change' }, /^type: not an audit entry type/],
    [{ from: '2025-01-01T00:00:00Z', to: '2025-06-01T00:00:00Z' }, /^from: the range may span at most 92 days/],
    [{ from: day(7), to: day(1) }, /^from: must not be later than to/],
    [{ to: 'soon' }, /^to: /],
    [{ cursor: 'eyJkYXkiOjF9' }, /^cursor: /],
    [{ limit: '101' }, /^limit: /],
  ])('refuses %j with 400 invalid_request naming the parameter', async (query, description) => {
    const response = await list(query as Record<string, string>);
    expect(response.statusCode).toBe(400);
    expect(json(response)).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(description) });
  });
});

describe("behaviour LOG-9: admin API changes are audited with the caller as actor, as the dashboard's are", () => {
  it('environment.create and user.update (the changed field names, never the new password)', async () => {
    const environmentId = `env-audit-${randomUUID().slice(0, 8)}`;
    expect(
      (await callAdmin(createEnvironment, { token: admin, method: 'POST', body: { id: environmentId, name: 'Audited' } })).statusCode,
    ).toBe(201);
    const user = await createUser();
    const password = `new-password-${randomUUID()}`;
    const updated = await callAdmin(updateUser, {
      token: admin,
      method: 'PATCH',
      pathParameters: { user_id: user.id },
      body: { name: 'Renamed', password },
    });
    expect(updated.statusCode).toBe(200);
    const listed = json(await callAdmin(listAudit, { token: admin, query: { limit: '100' } })) as Listed;
    const actor = { type: 'admin-client', client_id: adminClientId };
    expect(listed.items).toContainEqual(expect.objectContaining({ type: 'environment.create', environment_id: environmentId, actor }));
    expect(listed.items).toContainEqual(
      expect.objectContaining({ type: 'user.update', user_id: user.id, reason: 'name, password', actor }),
    );
    expect(JSON.stringify(listed)).not.toContain(password);
  });
});
