/**
 * The CPU one DynamoDB call costs the calling process through the AWS SDK, the same calls against
 * one DynamoDB Local, in alternating rounds in one process so all see the same machine: the
 * document client as the functions build it (lambdas/adapters/dynamodb/client.ts: the SDK with
 * our bounds and the invocation deadline), the SDK with its defaults, and, for scale, the same
 * bodies sent with Node's own `http.request()` over a keep-alive Agent, unsigned and without
 * retries: the bare cost of one Node.js HTTP call; and the SDK's client-dynamodb commands with the
 * values marshalled beforehand (lib-dynamodb's share). The calls are the token endpoint's: a strongly
 * consistent GetItem (the client record) and a BatchWriteItem of two items (the token record and
 * the activity row).
 */
import { BatchWriteItemCommand, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Sha256Node } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/core/protocols';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHmac, createSecretKey } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createDocumentClient } from '../lambdas/adapters/dynamodb/client';
import { startDynamoDbLocal } from '../lambdas/local/dynamodb-local';
import { createDynamoClient } from '../lambdas/adapters/dynamodb/client';
import { ensureTables, physicalTableNames } from '../lambdas/local/tables';
import { median } from './load';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const callsPerRound = Number(process.env.BENCH_CALLS ?? 400);

interface Client {
  send(command: unknown): Promise<unknown>;
}

/** The wire body of the two commands used here, marshalled as the SDK does. */
function wireRequest(command: unknown): { operation: string; body: string } {
  if (command instanceof GetCommand) {
    return { operation: 'GetItem', body: JSON.stringify({ ...command.input, Key: marshall(command.input.Key) }) };
  }
  const { RequestItems } = (command as BatchWriteCommand).input;
  const items = Object.fromEntries(
    Object.entries(RequestItems ?? {}).map(([table, requests]) => [
      table,
      requests.map((r) => ({ PutRequest: { Item: marshall(r.PutRequest?.Item ?? {}) } })),
    ]),
  );
  return { operation: 'BatchWriteItem', body: JSON.stringify({ RequestItems: items }) };
}

/** The same call as a bare keep-alive POST: the body the SDK sends, no signature, no retry. */
function plainHttpClient(endpoint: string): Client & { destroy(): void } {
  const url = new URL(endpoint);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  return {
    send: (command) => {
      const { operation, body } = wireRequest(command);
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

/**
 * The same calls as client-dynamodb commands with the values marshalled beforehand (the SDK
 * without lib-dynamodb's layer): what the document client's marshalling middleware costs.
 */
function preMarshalled(client: DynamoDBClient): Client & { destroy(): void } {
  return {
    destroy: () => client.destroy(),
    send: (command) => {
      if (command instanceof GetCommand) {
        const { Key, ...rest } = command.input;
        return client.send(new GetItemCommand({ ...rest, Key: marshall(Key) }));
      }
      const { RequestItems } = (command as BatchWriteCommand).input;
      return client.send(
        new BatchWriteItemCommand({
          RequestItems: Object.fromEntries(
            Object.entries(RequestItems ?? {}).map(([table, requests]) => [
              table,
              requests.map((r) => ({ PutRequest: { Item: marshall(r.PutRequest?.Item ?? {}) } })),
            ]),
          ),
        }),
      );
    },
  };
}

/**
 * Two parts of every call, timed alone (microseconds of CPU per operation): the SigV4 signature
 * of a GetItem request as the SDK makes it (a new SignatureV4 per request, as
 * @aws-sdk/core's signer does when no signer is configured), and one HMAC-SHA256 with the key as
 * bytes (as the SDK's Sha256Node passes the signing key) against the same key as a KeyObject:
 * on Node.js 24.21 a key given as bytes makes node:crypto throw and catch an error inside
 * createHmac (its KeyObject check), which a KeyObject avoids.
 */
async function signingParts(): Promise<string[]> {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const body = JSON.stringify({ TableName: 'main', Key: { pk: { S: 'CLIENT#tgc_x' }, sk: { S: 'CLIENT' } }, ConsistentRead: true });
  const host = 'dynamodb.eu-west-1.amazonaws.com';
  const sign = () =>
    new SignatureV4({ credentials, region: 'eu-west-1', service: 'dynamodb', sha256: Sha256Node, uriEscapePath: true }).sign(
      new HttpRequest({
        method: 'POST',
        protocol: 'https:',
        hostname: host,
        path: '/',
        headers: {
          host,
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.GetItem',
          'content-length': String(body.length),
        },
        body,
      }),
    );
  const key = Buffer.alloc(32, 7);
  const keyObject = createSecretKey(key);
  const message = `AWS4-HMAC-SHA256\n20261126T000000Z\n20261126/eu-west-1/dynamodb/aws4_request\n${'f'.repeat(64)}`;
  const parts: [string, () => unknown][] = [
    ['SigV4 signature of one request (SDK SignatureV4)', sign],
    ['HMAC-SHA256, key as bytes (as the SDK passes it)', () => createHmac('sha256', key).update(message).digest()],
    ['HMAC-SHA256, key as a KeyObject', () => createHmac('sha256', keyObject).update(message).digest()],
  ];
  const perOp = async (operation: () => unknown, count: number) => {
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) await operation();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / count;
  };
  const results = parts.map(() => [] as number[]);
  for (const [, operation] of parts) await perOp(operation, 2000);
  for (let round = 0; round < rounds; round++)
    for (const [i, [, operation]] of parts.entries()) results[i]!.push(await perOp(operation, 5000));
  return parts.map(([label], i) => `${label.padEnd(52)}${median(results[i]!).toFixed(1).padStart(6)} µs`);
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
    const clients: { label: string; client: Client }[] = [
      { label: "functions' client (adapters/dynamodb)", client: createDocumentClient({ endpoint: dynamo.endpoint }) as Client },
      {
        label: 'AWS SDK, its defaults',
        client: DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1', endpoint: dynamo.endpoint, credentials }), {
          marshallOptions: { removeUndefinedValues: true },
        }) as Client,
      },
      { label: 'SDK, pre-marshalled (no lib-dynamodb)', client: preMarshalled(createDynamoClient({ endpoint: dynamo.endpoint })) },
      { label: 'plain http.request (unsigned)', client: plainHttpClient(dynamo.endpoint) },
    ];
    const get = ({ client }: (typeof clients)[number]) =>
      cpuPerCall((i) => client.send(new GetCommand({ TableName: tables.main, Key: { pk: `BENCH#${i}`, sk: 'X' }, ConsistentRead: true })));
    const write = ({ client }: (typeof clients)[number]) =>
      cpuPerCall((i) =>
        client.send(
          new BatchWriteCommand({
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
    const plain = clients.length - 1;
    const rows = clients.map(
      (c, i) =>
        `${c.label.padEnd(38)}  ${median(results[i]!.get).toFixed(3).padStart(9)}  ${median(results[i]!.write).toFixed(3).padStart(17)}`,
    );
    const ratio = (k: 'get' | 'write', of = 0, to = 1) => (median(results[of]![k]) / median(results[to]![k])).toFixed(2);
    return [
      `CPU of the calling process per DynamoDB call (ms), ${callsPerRound} sequential calls a round, ${rounds} alternating rounds (medians), DynamoDB Local`,
      '',
      `client                                  GetItem ms  BatchWrite(2) ms`,
      ...rows,
      '',
      `functions' client / SDK defaults: GetItem ${ratio('get')}, BatchWrite ${ratio('write')}`,
      `functions' client / plain http.request: GetItem ${ratio('get', 0, plain)}, BatchWrite ${ratio('write', 0, plain)}`,
      '',
      `Parts of every SDK call, alone (CPU per operation, ${rounds} rounds of 5,000, medians; Node.js ${process.version})`,
      ...(await signingParts()),
    ].join('\n');
  } finally {
    await dynamo.stop();
  }
}
