/**
 * The statistics rollup end to end on DynamoDB Local (behaviour LOG-10 to LOG-13): the local server's
 * stream poller hands the tables' records to the rollup function, and the dashboard's readers see
 * the token requests and the counters a few seconds later, without listing anything.
 */
import { randomUUID } from 'node:crypto';
import { DynamoServiceCounts, DynamoTokenStats } from '../../lambdas/adapters/dynamodb/token-stats';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { conflictRetry } from '../../lambdas/adapters/dynamodb/statistics-stream';
import { hourOf } from '../../lambdas/core/admin/token-stats';
import { handler as rollUpStatistics } from '../../lambdas/jobs/roll-up-statistics';
import { startLocalApp, type LocalApp } from '../../lambdas/local/app';
import { physicalTableNames } from '../../lambdas/local/tables';
import { type Attempt, DynamoFaults, touches, transactionConflict } from '../support/dynamo-faults';
import { adminApi, call, clientCredentialsToken } from '../support/local-http';

const tablePrefix = `stats-${randomUUID().slice(0, 8)}-`;
const tables = physicalTableNames(tablePrefix);
const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
const tokenStats = new DynamoTokenStats(db, tables.activity);
const serviceCounts = new DynamoServiceCounts(db, tables.activity);
let app: LocalApp;
let adminToken: string;
const admin = adminApi(
  () => app.url,
  () => adminToken,
);

const today = () => new Date().toISOString().slice(0, 10);
const nextHour = () => hourOf(new Date(Date.now() + 3_600_000).toISOString());

/** Polls until `read` answers what `done` wants (the stream lag locally is about a second), at most 10 s. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 10_000;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

beforeAll(async () => {
  app = await startLocalApp({
    port: 0,
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT,
    tablePrefix,
    env: { HASH_METHOD: 'argon2id-fast', LOG_LEVEL: process.env.LOG_LEVEL },
  });
}, 60_000);

afterAll(async () => {
  await app.close();
  db.destroy();
});

describe('statistics rollup through the local server’s stream poller', () => {
  const startHour = hourOf(new Date().toISOString());

  it('LOG-10: a client_credentials token and a refusal with a wrong secret count as 1 issued and 1 refused, for the client and the service', async () => {
    const { clientId, clientSecret } = app.bootstrap.adminClient;
    adminToken = await clientCredentialsToken(app.url, clientId, clientSecret, 'admin');
    const refused = await call(app.url, 'POST', '/api/token', {
      form: { grant_type: 'client_credentials', scope: 'admin' },
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:wrong-secret`).toString('base64')}` },
    });
    expect(refused.status).toBe(401);

    const sum = (hours: Awaited<ReturnType<typeof tokenStats.hourly>>) =>
      hours.reduce(
        (total, hour) => ({
          issued: total.issued + (hour.counts.client_credentials?.issued ?? 0),
          refused: total.refused + (hour.counts.client_credentials?.refused ?? 0),
        }),
        { issued: 0, refused: 0 },
      );
    const ofClient = await eventually(
      async () => sum(await tokenStats.hourly({ kind: 'client', clientId }, startHour, nextHour())),
      (counts) => counts.refused >= 1,
    );
    expect(ofClient).toEqual({ issued: 1, refused: 1 });
    expect(sum(await tokenStats.hourly({ kind: 'service' }, startHour, nextHour()))).toEqual({ issued: 1, refused: 1 });
  }, 30_000);

  it('LOG-11: a client, a user and API keys created after the start are counted; a revoked key and a pending one are not', async () => {
    const client = await admin('POST', '/api/admin/clients', {
      type: 'confidential',
      name: 'statistics',
      environment_id: app.bootstrap.environments.defaultId,
      scopes: ['profile'],
    });
    const user = await admin('POST', '/api/admin/users', { name: 'Counted' });
    const keysPath = `/api/admin/clients/${String(client.client_id)}/api-keys`;
    const expiresAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
    await admin('POST', keysPath, { userId: user.id, expiresAt });
    const revoked = await admin('POST', keysPath, { userId: user.id });
    await admin('DELETE', `${keysPath}/${String(revoked.key_id)}`);

    // The seed's admin user and client were written before the poller started: counting starts then (LOG-13).
    const expected = { clients: { static: 1, dynamic: 0 }, users: 1, activeApiKeys: 1, apiKeysExpiringSoon: 1 };
    // Waits for every change, the revocation included: the records arrive a poll or two apart.
    const counts = await eventually(
      () => serviceCounts.counts(today()),
      (value) => JSON.stringify(value) === JSON.stringify(expected),
    );
    expect(counts).toEqual(expected);
  }, 30_000);

  it('LOG-13: a recount ({"recount": true}) sets the counters from the lists, the seed’s records included', async () => {
    // Let the poller hand over what it has, so nothing lands after the recount's writes.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await expect(rollUpStatistics({ recount: true })).resolves.toEqual({ clients: 2, users: 2, apiKeys: 1 });
    expect(await serviceCounts.counts(today())).toEqual({
      clients: { static: 2, dynamic: 0 },
      users: 2,
      activeApiKeys: 1,
      apiKeysExpiringSoon: 1,
    });
  }, 30_000);

  it('LOG-12: the same stream batch handled twice counts once (its transactions carry the same request tokens)', async () => {
    const { clientId, startedAt, event } = tokenRowBatch();
    await rollUpStatistics(event);
    await rollUpStatistics(event);
    const hours = await tokenStats.hourly({ kind: 'client', clientId }, hourOf(startedAt), nextHour());
    expect(hours.map((hour) => hour.counts)).toEqual([{ client_credentials: { issued: 1, refused: 0 } }]);
  });
});

/** A stream batch of one successful client_credentials row of a new client. */
function tokenRowBatch() {
  const clientId = `tgc_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const startedAt = new Date().toISOString();
  const row = {
    pk: { S: `ACTIVITY#${clientId}#00` },
    sk: { S: `${startedAt}#a1` },
    requestType: { S: 'client_credentials' },
    success: { BOOL: true },
    clientId: { S: clientId },
    startedAt: { S: startedAt },
  };
  const event = {
    Records: [{ eventID: `e-${clientId}`, eventName: 'INSERT' as const, dynamodb: { Keys: { pk: row.pk, sk: row.sk }, NewImage: row } }],
  };
  return { clientId, startedAt, event };
}

describe('LOG-12: a batch’s transactions against concurrent ones (every shard adds to the same service hour)', () => {
  let faults: DynamoFaults;
  beforeEach(() => (faults = DynamoFaults.install()));
  afterEach(() => faults.uninstall());
  const statsWrite = (attempt: Attempt) => touches(attempt, 'STATS#');
  // The local server’s poller writes through the same client: fail only this batch’s writes.
  const writeOf = (clientId: string) => (attempt: Attempt) => touches(attempt, `STATS#CLIENT#${clientId}`);

  it('LOG-12: a transaction cancelled for TransactionConflict is tried again with the same request token; the counts land once', async () => {
    const { clientId, startedAt, event } = tokenRowBatch();
    const ours = writeOf(clientId);
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: ours, times: 3, answer: () => transactionConflict(2) });
    await rollUpStatistics(event);

    const tries = faults.attempts.filter((attempt) => attempt.operation === 'TransactWriteItems' && ours(attempt));
    expect(tries).toHaveLength(4);
    expect(new Set(tries.map((attempt) => attempt.input.ClientRequestToken)).size).toBe(1);
    const hours = await tokenStats.hourly({ kind: 'client', clientId }, hourOf(startedAt), nextHour());
    expect(hours.map((hour) => hour.counts)).toEqual([{ client_credentials: { issued: 1, refused: 0 } }]);
  });

  it('LOG-12: conflicts that outlast the tries fail the batch (Lambda retries it whole), with nothing counted', async () => {
    const { clientId, startedAt, event } = tokenRowBatch();
    const ours = writeOf(clientId);
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: ours, answer: () => transactionConflict(2) });
    await expect(rollUpStatistics(event)).rejects.toThrow('conflicting transactions');

    expect(faults.attempts.filter((attempt) => attempt.operation === 'TransactWriteItems' && ours(attempt))).toHaveLength(
      conflictRetry.attempts,
    );
    expect(await tokenStats.hourly({ kind: 'client', clientId }, hourOf(startedAt), nextHour())).toEqual([]);
  }, 30_000);

  it('LOG-11: a failing batch of user records logs and throws nothing of their images (no password hash)', async () => {
    const userId = randomUUID();
    const user = { pk: { S: `USER#${userId}` }, sk: { S: 'USER' }, passwordHash: { S: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' } };
    const event = {
      Records: [{ eventID: `e-${userId}`, eventName: 'INSERT' as const, dynamodb: { Keys: { pk: user.pk, sk: user.sk }, NewImage: user } }],
    };
    faults.fail({ operation: 'TransactWriteItems', phase: 'before', where: statsWrite });
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    let thrown: unknown;
    try {
      await rollUpStatistics(event).catch((error: unknown) => (thrown = error));
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expect(thrown).toBeInstanceOf(Error);
    const error = thrown as Error;
    expect(`${written.join('')}${error.message}${error.stack}${JSON.stringify(error)}`).not.toContain('$argon2');
  }, 30_000);
});
