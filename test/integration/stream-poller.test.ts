/**
 * The local stream poller against DynamoDB Local (behaviour LOG-10, LOG-11 locally): a failed call
 * never gives a shard up. Its streams client is the test's, with a middleware in front of the SDK's
 * retries that fails the calls the test names, as a DynamoDB Local hiccup would.
 */
import { randomUUID } from 'node:crypto';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { createDocumentClient, createDynamoClient } from '../../lambdas/adapters/dynamodb/client';
import { type StreamPoller, startStreamPoller } from '../../lambdas/local/stream-poller';
import { ensureTables, physicalTableNames } from '../../lambdas/local/tables';

const endpoint = process.env.DYNAMODB_ENDPOINT!;
const region = 'us-east-1';
const tables = physicalTableNames(`poller-${randomUUID().slice(0, 8)}-`);
const client = createDynamoClient({ endpoint });
let db: DynamoDBDocumentClient;
let streams: DynamoDBStreamsClient;
let poller: StreamPoller | undefined;

/** Calls to fail next, by operation: each entry fails one call with an error of that name. */
const failNext: Record<string, string[]> = {};
const warnings: { message: string; fields: Record<string, unknown> }[] = [];
const handled: DynamoDBRecord[] = [];

beforeAll(async () => {
  await ensureTables(client, tables);
  db = createDocumentClient({ endpoint });
  streams = new DynamoDBStreamsClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  streams.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = (context.commandName ?? '').replace(/Command$/, '');
      const name = failNext[operation]?.shift();
      if (name) throw Object.assign(new Error(`test fault: ${name}`), { name, $metadata: {} });
      return next(args);
    },
    { step: 'initialize', name: 'testStreamFaults' },
  );
  poller = await startStreamPoller({
    endpoint,
    region,
    client,
    streams,
    tables: [{ name: tables.main, filter: [{ pkPrefix: 'USER#', sk: 'USER' }] }],
    handle: async (event) => handled.push(...event.Records),
    warn: (message, fields) => warnings.push({ message, fields }),
    intervalMs: 50,
  });
});

afterAll(async () => {
  await poller?.close();
  streams.destroy();
  db.destroy();
  client.destroy();
});

const putUser = async () => {
  const id = randomUUID();
  await db.send(new PutCommand({ TableName: tables.main, Item: { pk: `USER#${id}`, sk: 'USER' } }));
  return `USER#${id}`;
};

async function handedOver(pk: string): Promise<boolean> {
  const until = Date.now() + 10_000;
  while (Date.now() < until) {
    if (handled.some((record) => record.dynamodb?.Keys?.pk?.S === pk)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('the local stream poller when DynamoDB Local fails a call', () => {
  it('LOG-10: hands over a record written after it started', async () => {
    expect(await handedOver(await putUser())).toBe(true);
  });

  it('LOG-10: an expired iterator whose new iterator cannot be had (three times) keeps its shard: the next write is handed over, with one warning', async () => {
    warnings.length = 0;
    failNext.GetRecords = ['ExpiredIteratorException', 'ExpiredIteratorException', 'ExpiredIteratorException'];
    failNext.GetShardIterator = ['InternalServerError', 'InternalServerError', 'InternalServerError'];
    const pk = await putUser();
    expect(await handedOver(pk)).toBe(true);
    expect(failNext.GetRecords).toEqual([]);
    expect(failNext.GetShardIterator).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/trying it again each tick/);
  });

  it('LOG-10: a failed read keeps its iterator, so no record is skipped, and warns once until a read succeeds', async () => {
    warnings.length = 0;
    failNext.GetRecords = ['InternalServerError', 'InternalServerError'];
    const pk = await putUser();
    expect(await handedOver(pk)).toBe(true);
    expect(warnings).toHaveLength(1);
  });
});
