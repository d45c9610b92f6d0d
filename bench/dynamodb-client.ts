/**
 * The CPU one DynamoDB call costs the calling process: our signed HTTP client
 * (lambdas/adapters/aws/dynamodb.ts) against the AWS SDK (lib-dynamodb over client-dynamodb,
 * the client it replaced), the same calls against one DynamoDB Local, in alternating rounds in
 * one process so both see the same machine. The calls are the token endpoint's: a strongly
 * consistent GetItem (the client record) and a BatchWriteItem of two items (the token record
 * and the activity row). A third row sends the same bodies with Node's own `http.request()` over a
 * keep-alive Agent, unsigned and without retries: the bare cost of one Node.js HTTP call.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { Agent, request } from 'node:http';
import * as sdk from '@aws-sdk/lib-dynamodb';
import * as ours from '../lambdas/adapters/aws/dynamodb';
import { startDynamoDbLocal } from '../lambdas/local/dynamodb-local';
import { createDynamoClient } from '../lambdas/local/sdk-client';
import { ensureTables, physicalTableNames } from '../lambdas/local/tables';
import { median } from './load';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const callsPerRound = Number(process.env.BENCH_CALLS ?? 400);

interface Client {
  send(command: unknown): Promise<unknown>;
}
type Commands = typeof ours | typeof sdk;

/** The same call as a bare keep-alive POST: the body our client sends, no signature, no retry. */
function plainHttpClient(endpoint: string): Client & { destroy(): void } {
  const url = new URL(endpoint);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  return {
    send: (command) => {
      const { operation } = command as ours.DynamoCommand<object, object>;
      const body = JSON.stringify((command as ours.DynamoCommand<object, object>).wireInput());
      return new Promise((resolve, reject) => {
        const req = request(
          {
            hostname: url.hostname,
            port: url.port,
            method: 'POST',
            path: '/',
            agent,
            headers: {
              'content-type': 'application/x-amz-json-1.0',
              'x-amz-target': `DynamoDB_20120810.${operation}`,
              authorization: 'AWS4-HMAC-SHA256 Credential=local/20261124/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    destroy: () => agent.destroy(),
  };
}

/** Microseconds of process CPU per call of `call`, over `callsPerRound` sequential calls. */
async function cpuPerCall(call: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < callsPerRound; i++) await call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / callsPerRound / 1000;
}

export async function dynamodbClientBench(): Promise<string> {
  const dynamo = await startDynamoDbLocal();
  try {
    const tables = physicalTableNames('bench-');
    const setup = createDynamoClient({ endpoint: dynamo.endpoint });
    await ensureTables(setup, tables);
    setup.destroy();
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    const clients: { label: string; client: Client; commands: Commands }[] = [
      {
        label: 'ours (lambdas/adapters/aws)',
        client: new ours.DynamoDocumentClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials: () => credentials }) as Client,
        commands: ours,
      },
      {
        label: 'AWS SDK (lib-dynamodb)',
        client: sdk.DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials }), {
          marshallOptions: { removeUndefinedValues: true },
        }) as Client,
        commands: sdk,
      },
      { label: 'plain http.request (unsigned)', client: plainHttpClient(dynamo.endpoint), commands: ours },
    ];
    const get = ({ client, commands }: (typeof clients)[number]) =>
      cpuPerCall((i) =>
        client.send(new commands.GetCommand({ TableName: tables.main, Key: { pk: `BENCH#${i}`, sk: 'X' }, ConsistentRead: true })),
      );
    const write = ({ client, commands }: (typeof clients)[number]) =>
      cpuPerCall((i) =>
        client.send(
          new commands.BatchWriteCommand({
            RequestItems: {
              [tables.main]: [
                {
                  PutRequest: {
                    Item: {
                      pk: `BENCH#${i}`,
                      sk: 'TOKEN',
                      clientId: 'tgc_x',
                      scope: 'admin',
                      expiresAt: 1_900_000_000,
                      ttl: 1_900_000_000,
                    },
                  },
                },
                { PutRequest: { Item: { pk: 'ACTIVITY#tgc_x', sk: `${Date.now()}#${i}`, kind: 'token', ttl: 1_900_000_000 } } },
              ],
            },
          }),
        ),
      );
    // Warm-up: connections, JIT.
    for (const c of clients) {
      await get(c);
      await write(c);
    }
    const results = clients.map(() => ({ get: [] as number[], write: [] as number[] }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, c] of clients.entries()) {
        results[i]!.get.push(await get(c));
        results[i]!.write.push(await write(c));
      }
    }
    for (const c of clients) (c.client as { destroy?: () => void }).destroy?.();
    const rows = clients.map(
      (c, i) =>
        `${c.label.padEnd(30)}  ${median(results[i]!.get).toFixed(3).padStart(9)}  ${median(results[i]!.write).toFixed(3).padStart(17)}`,
    );
    const ratio = (k: 'get' | 'write', of = 0, to = 1) => (median(results[of]![k]) / median(results[to]![k])).toFixed(2);
    return [
      `CPU of the calling process per DynamoDB call (ms), ${callsPerRound} sequential calls a round, ${rounds} alternating rounds (medians), DynamoDB Local`,
      '',
      `client                          GetItem ms  BatchWrite(2) ms`,
      ...rows,
      '',
      `ours / SDK: GetItem ${ratio('get')}, BatchWrite ${ratio('write')}`,
      `ours / plain http.request: GetItem ${ratio('get', 0, 2)}, BatchWrite ${ratio('write', 0, 2)}`,
    ].join('\n');
  } finally {
    await dynamo.stop();
  }
}
