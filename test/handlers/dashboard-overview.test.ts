/**
 * The dashboard's overview and a client's chart (behaviour DASH-7..DASH-9) against DynamoDB Local:
 * the statistics items are written as the rollup keeps them (test/support/token-stats.ts), and the
 * pages show their numbers: the counters with links to the lists, token requests per request type
 * over 24 hours and 7 days with the refusal rate, the two charts with their tables, the empty
 * states. On tables of this file's own: the service-wide items are one per hour.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { getStorage } from '../../lambdas/wiring/storage';
import { dashboardSessionOf, handler } from '../support/dashboard-handler';
import { apiGatewayEvent, lambdaContext } from '../support/events';
import { createClient, createUser } from '../support/fixtures';
import { useOwnTables } from '../support/own-tables';
import { recordSigningKeyTimes } from '../support/signing-key-times';
import { hourBefore, putApiKeyExpiryDay, putServiceCounters, putTokenStatsHour } from '../support/token-stats';

useOwnTables();

let cookie: string;
beforeAll(async () => {
  ({ cookie } = await dashboardSessionOf(await createUser({ admin: true, test: false })));
});

async function get(path: string): Promise<APIGatewayProxyResult> {
  const proxy = path === '/dashboard' ? undefined : path.replace(/^\/dashboard\//, '');
  return handler(
    apiGatewayEvent({
      method: 'GET',
      path,
      resource: proxy === undefined ? '/dashboard' : '/dashboard/{proxy+}',
      headers: { Accept: 'text/html', Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' },
      ...(proxy !== undefined ? { pathParameters: { proxy } } : {}),
    }),
    lambdaContext,
  );
}

const cell = (body: string, id: string) => new RegExp(`id="${id}">([^<]*)<`).exec(body)?.[1];
/** The six cells (24 h issued, refused, rate; 7 days issued, refused, rate) of a request type's row. */
const requestTypeRow = (body: string, type: string) => {
  const row = new RegExp(`<tr data-request-type="${type}">(.*?)</tr>`, 's').exec(body)?.[1] ?? '';
  return [...row.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]);
};

describe('the overview before anything was counted (behaviour DASH-7, DASH-9)', () => {
  it('shows zeros and the empty states instead of empty charts', async () => {
    const page = await get('/dashboard');
    expect(page.statusCode).toBe(200);
    expect(cell(page.body, 'count-static-clients')).toBe('0');
    expect(cell(page.body, 'count-users')).toBe('0');
    expect(page.body).toContain('<p class="empty-chart" id="chart-24h">No token requests in the last 24 hours.</p>');
    expect(page.body).toContain('<p class="empty-chart" id="chart-7d">No token requests in the last 7 days.</p>');
    expect(requestTypeRow(page.body, 'client_credentials')).toEqual(['0', '0', '–', '0', '0', '–']);
    expect(page.body).not.toContain('<svg');
    expect(page.body).toContain('<p id="signing-key-unrecorded">Not recorded yet');
  });
});

describe('the overview (behaviour DASH-7)', () => {
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const inDays = (days: number) => new Date(now + days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    await putServiceCounters({ staticClients: 12, dynamicClients: 34, users: 56, apiKeysWithoutExpiry: 3 });
    await putApiKeyExpiryDay(inDays(-1), 9); // expired yesterday: no longer active
    await putApiKeyExpiryDay(today, 1);
    await putApiKeyExpiryDay(inDays(10), 2);
    await putApiKeyExpiryDay(inDays(29), 5); // the last of the 30 days (LOG-11)
    await putApiKeyExpiryDay(inDays(30), 7); // the 31st day: active, not within 30 days
    await putApiKeyExpiryDay(inDays(90), 4);
    await putTokenStatsHour({ kind: 'service' }, hourBefore(now, 0), {
      client_credentials: { issued: 6, refused: 2 },
      'api key': { issued: 1 },
    });
    await putTokenStatsHour({ kind: 'service' }, hourBefore(now, 5), { authorization_code: { issued: 3, refused: 1 } });
    await putTokenStatsHour({ kind: 'service' }, hourBefore(now, 30), { client_credentials: { issued: 10, refused: 8 } });
    await putTokenStatsHour({ kind: 'service' }, hourBefore(now, 24 * 8), { client_credentials: { issued: 500, refused: 500 } });
  });

  it('shows the counters, each list linked: clients static and self-registered, users, active keys, keys expiring within 30 days (LOG-11: today and the 29 days after it, by UTC day)', async () => {
    const page = await get('/dashboard');
    expect(page.statusCode).toBe(200);
    expect(cell(page.body, 'count-static-clients')).toBe('12');
    expect(cell(page.body, 'count-dynamic-clients')).toBe('34');
    expect(cell(page.body, 'count-users')).toBe('56');
    expect(cell(page.body, 'count-active-keys')).toBe('22');
    expect(cell(page.body, 'count-expiring-keys')).toBe('8');
    expect(page.body).toContain('API keys expiring within 30 days (by UTC day)');
    expect(page.body).toContain('one that expires today counts as active until the day ends');
    expect(page.body).toContain('<a href="/dashboard/clients?type=dynamic">Self-registered clients</a>');
    expect(page.body).toContain('<a href="/dashboard/users">Users</a>');
  });

  it('shows issued, refused and the refusal rate per request type over 24 hours and 7 days; an unused grant shows 0', async () => {
    const { body } = await get('/dashboard');
    expect(requestTypeRow(body, 'client_credentials')).toEqual(['6', '2', '25%', '16', '10', '38.5%']);
    expect(requestTypeRow(body, 'authorization_code')).toEqual(['3', '1', '25%', '3', '1', '25%']);
    expect(requestTypeRow(body, 'api key')).toEqual(['1', '0', '0%', '1', '0', '0%']);
    expect(requestTypeRow(body, 'refresh_token')).toEqual(['0', '0', '–', '0', '0', '–']);
    expect(body).toMatch(
      /<tfoot><tr><th scope="row">All<\/th><td>10<\/td><td>3<\/td><td>23.1%<\/td><td>20<\/td><td>11<\/td><td>35.5%<\/td><\/tr><\/tfoot>/,
    );
  });

  it('draws both charts, each an image with its numbers in a table whose totals are the table above (DASH-9)', async () => {
    const { body } = await get('/dashboard');
    expect(body).toContain('<svg id="chart-24h" role="img" aria-labelledby="chart-24h-title chart-24h-desc"');
    expect(body).toContain('<svg id="chart-7d" role="img"');
    const totals = [...body.matchAll(/<tfoot><tr><th>Total<\/th><th>(\d+)<\/th><th>(\d+)<\/th><\/tr><\/tfoot>/g)].map((m) => [m[1], m[2]]);
    expect(totals).toEqual([
      ['10', '3'],
      ['20', '11'],
    ]);
    expect(body).not.toContain('<script');
  });

  it('a counter below zero (a stream replayed out of order) shows 0, never a negative count', async () => {
    await putServiceCounters({ staticClients: -2, dynamicClients: 34, users: 56, apiKeysWithoutExpiry: 3 });
    const { body } = await get('/dashboard');
    expect(cell(body, 'count-static-clients')).toBe('0');
    await putServiceCounters({ staticClients: 12, dynamicClients: 34, users: 56, apiKeysWithoutExpiry: 3 });
  });
});

describe("the signing key's age and next rotation (behaviour DASH-7)", () => {
  it('shows the key, its age and when the next key is due, as the rotation job recorded them', async () => {
    const day = 86_400_000;
    const activatedAt = new Date(Date.now() - 12 * day - 60_000).toISOString();
    await recordSigningKeyTimes({
      currentKid: 'kid-<current>',
      activatedAt,
      rotateAfterDays: 30,
      publishLeadMs: 20 * 60_000,
      recordedAt: new Date().toISOString(),
    });
    const { body } = await get('/dashboard');
    expect(body).toContain('<code>kid-&lt;current&gt;</code>');
    expect(cell(body, 'signing-key-age')).toBe(`12 days (signing since ${activatedAt.slice(0, 10)} ${activatedAt.slice(11, 16)} UTC)`);
    const due = new Date(Date.parse(activatedAt) + 30 * day).toISOString();
    expect(body).toContain(
      `the next key is published at the rotation job's first daily run from ${due.slice(0, 10)} ${due.slice(11, 16)} UTC`,
    );
  });

  it('a key published and waiting is named, with when it starts signing', async () => {
    await recordSigningKeyTimes({
      currentKid: 'kid-current',
      activatedAt: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      pending: { kid: 'kid-next', publishedAt: '2026-11-26T03:41:00.000Z' },
      rotateAfterDays: 30,
      publishLeadMs: 20 * 60_000,
      recordedAt: new Date().toISOString(),
    });
    const { body } = await get('/dashboard');
    expect(body).toMatch(
      /id="signing-key-next">key <code>kid-next<\/code> is published and signs from the rotation job's first daily run from 2026-11-26 04:01 UTC/,
    );
  });

  it('a record without its kid or activation (not one the job writes) counts as not recorded, never a 500', async () => {
    await getStorage().db.send(
      new PutCommand({
        TableName: getStorage().tables.main,
        Item: { pk: 'SIGNINGKEY', sk: 'TIMES', recordedAt: new Date().toISOString() },
      }),
    );
    const page = await get('/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p id="signing-key-unrecorded">Not recorded yet');
  });
});

describe("a client's page (behaviour DASH-8)", () => {
  it("charts the client's own requests of the last 7 days by day and links its activity log", async () => {
    const client = await createClient({ kind: 'service', name: 'Charted service' });
    const other = await createClient({ kind: 'service', name: 'Another service' });
    const now = Date.now();
    await putTokenStatsHour({ kind: 'client', clientId: client.clientId }, hourBefore(now, 0), {
      client_credentials: { issued: 4, refused: 1 },
    });
    await putTokenStatsHour({ kind: 'client', clientId: client.clientId }, hourBefore(now, 48), { client_credentials: { issued: 2 } });
    await putTokenStatsHour({ kind: 'client', clientId: other.clientId }, hourBefore(now, 0), { client_credentials: { issued: 99 } });
    const page = await get(`/dashboard/clients/${client.clientId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<svg id="client-chart-7d" role="img"');
    expect(page.body).toContain('<tfoot><tr><th>Total</th><th>6</th><th>1</th></tr></tfoot>');
    expect(page.body).toContain(`<a href="/dashboard/clients/${client.clientId}/activity">Every request in the token activity log</a>`);
  });

  it('a client with no requests shows the empty state', async () => {
    const client = await createClient({ kind: 'service', name: 'Quiet service' });
    const page = await get(`/dashboard/clients/${client.clientId}`);
    expect(page.body).toContain('No token requests from this client in the last 7 days.');
    expect(page.body).not.toContain('<svg');
  });
});
