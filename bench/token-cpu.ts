/**
 * Where a client_credentials token's CPU goes, in one process: the token handler invoked
 * directly with an API Gateway event (as Lambda invokes it: no HTTP server in front), against
 * the two parts of it that cannot be cut, each replayed alone under the same load: the JWT
 * signature (the same claims through the same signer) and the DynamoDB calls (the very
 * commands the handler sent, recorded from one request). What is left is the handler's own
 * code: parsing, validation, client authentication, the middy chain, logging and metrics.
 * DynamoDB Local (in memory) is another process and is not counted.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { createSigner, generateKeySet, type JwtSigner, type SignOptions } from '../lambdas/adapters/signing/key-set';
import { startLocalApp } from '../lambdas/local/app';
import { getSigner } from '../lambdas/wiring/signing';
import { getStorage } from '../lambdas/wiring/storage';
import { median } from './load';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const perRound = Number(process.env.BENCH_CALLS ?? 2000);
/** Operations in flight at once: 10 by default; 1 as a Lambda function serves requests (BENCH_IN_FLIGHT=1). */
const inFlight = Number(process.env.BENCH_IN_FLIGHT ?? 10);

/** Milliseconds of this process's CPU per operation, `perRound` operations, `inFlight` at a time. */
async function cpuPerOperation(operation: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const worker = async () => {
    while (started++ < perRound) await operation();
  };
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / perRound / 1000;
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export async function tokenCpuBench(): Promise<string> {
  const app = await startLocalApp({
    port: 0,
    env: { HASH_METHOD: 'argon2id', LOG_LEVEL: 'info', ...process.env, POWERTOOLS_METRICS_DISABLED: 'false' },
  });
  try {
    const { handler } = (await import('../lambdas/handlers/token')) as { handler: Handler };
    const { clientId, clientSecret } = app.bootstrap.adminClient;
    const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const event = (): APIGatewayProxyEvent =>
      ({
        resource: '/api/token',
        path: '/api/token',
        httpMethod: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', host: 'localhost' },
        multiValueHeaders: {},
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        pathParameters: null,
        stageVariables: null,
        body: 'grant_type=client_credentials&scope=admin',
        isBase64Encoded: false,
        requestContext: { requestId: randomUUID(), identity: { sourceIp: '127.0.0.1' } },
      }) as unknown as APIGatewayProxyEvent;
    // As Lambda gives it: the invocation deadline (adapters/aws/invocation-deadline.ts) is part of the work.
    const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10_000 } as Context;
    const token = async () => {
      const result = await handler(event(), context);
      if (result.statusCode !== 200) throw new Error(`token request answered ${result.statusCode}: ${result.body}`);
    };
    // The handler writes a metric document per token to stdout, as in Lambda: each still costs its
    // write, but to /dev/null, not into this report.
    const devNull = openSync('/dev/null', 'w');
    const stdoutWrite = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) =>
      (typeof chunk === 'string' ? writeSync(devNull, chunk) : writeSync(devNull, chunk)) >= 0) as typeof process.stdout.write;
    const restoreStdout = () => {
      process.stdout.write = stdoutWrite;
      closeSync(devNull);
    };
    await token(); // loads the handler's lazy parts and verifies the secret once (then cached, as in a warm container)

    // Record what one request sends to DynamoDB and signs, to replay each part alone.
    // Recorded as class and input, and replayed as new commands: an SDK command is meant to be sent once.
    type Recorded = { Command: new (input: unknown) => unknown; input: unknown; name: string };
    const commands: Recorded[] = [];
    let claims: Parameters<JwtSigner['sign']> | undefined;
    const { db } = getStorage();
    const send = db.send;
    db.send = ((command: { constructor: Recorded['Command']; input: unknown }, options?: object) => {
      commands.push({ Command: command.constructor, input: structuredClone(command.input), name: command.constructor.name });
      return (send as (command: unknown, options?: object) => Promise<unknown>).call(db, command, options);
    }) as unknown as typeof send;
    const signer = await getSigner();
    const sign = signer.sign;
    (signer as { sign: JwtSigner['sign'] }).sign = (payload, options) => {
      claims = [payload, options];
      return sign(payload, options);
    };
    await token();
    db.send = send;
    (signer as { sign: JwtSigner['sign'] }).sign = sign;
    if (!claims || commands.length === 0) throw new Error('the token request signed or sent nothing');
    const [payload, options] = claims as [Record<string, unknown>, SignOptions];
    // For comparison: the same claims signed with ES256, the other SIGNING_ALG.
    const es256 = await createSigner(await generateKeySet(signer.alg === 'ES256' ? 'RS256' : 'ES256'));

    const parts = {
      'whole request (handler, direct)': token,
      'JWT signature': () => sign(payload, options),
      [`DynamoDB calls (${commands.map((c) => c.name.replace(/Command$/, '')).join(' + ')})`]: async () => {
        for (const { Command, input } of commands)
          await (db.send as (command: unknown) => Promise<unknown>)(new Command(structuredClone(input)));
      },
      [`(the same claims signed with ${es256.alg})`]: () => es256.sign(payload, options),
    };
    const results: Record<string, number[]> = Object.fromEntries(Object.keys(parts).map((name) => [name, []]));
    try {
      for (const part of Object.values(parts)) await cpuPerOperation(part); // warm-up, alternating as measured
      for (let round = 0; round < rounds; round++) {
        for (const [name, part] of Object.entries(parts)) results[name]!.push(await cpuPerOperation(part));
      }
    } finally {
      restoreStdout();
    }
    const medians = Object.fromEntries(Object.entries(results).map(([name, values]) => [name, median(values)]));
    const [whole, signature, database] = Object.values(medians) as [number, number, number, number];
    const line = (label: string, ms: number) =>
      `${label.padEnd(52)}${ms.toFixed(3).padStart(7)}  ${((100 * ms) / whole).toFixed(0).padStart(3)}%`;
    return [
      `client_credentials token, ${signer.alg}, Node.js ${process.version}: process CPU per token (ms), ${rounds} alternating rounds of ${perRound}, ${inFlight} in flight (medians)`,
      '',
      ...Object.entries(medians)
        .slice(0, 3)
        .map(([name, ms]) => line(name, ms)),
      line('the rest (parsing, checks, middy, logs, metrics)', whole - signature - database),
      line(...(Object.entries(medians)[3] as [string, number])),
    ].join('\n');
  } finally {
    await app.close();
  }
}
