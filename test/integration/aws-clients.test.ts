/**
 * The AWS SDK clients as the functions build them (lambdas/adapters/aws/sdk-clients.ts and the
 * factories beside it): the SDK resolves every endpoint from the region and the standard settings,
 * a call never outlives the invocation's deadline, and a keep-alive socket found dead is survived.
 * Endpoint resolution needs no network: a middleware at the SDK's innermost step records the
 * request as it would leave (endpoint resolved, signed) and stops it there.
 */
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { getMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invocationDeadline, runWithinDeadline } from '../../lambdas/adapters/aws/invocation-deadline';
import { awsClient, backgroundCallBounds } from '../../lambdas/adapters/aws/sdk-clients';
import { isServiceUnavailable } from '../../lambdas/adapters/aws-errors';
import { activityShardCount } from '../../lambdas/adapters/dynamodb/activity-shards';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/client';
import { awsClientSettings } from '../../lambdas/wiring/aws';

interface Sent {
  readonly hostname: string;
  readonly authorization: string;
}

class Stopped extends Error {
  override name = 'StoppedBeforeSending';
}

/** Sends one command through `client` and returns the request as it would have left. */
async function requestOf(client: { middlewareStack: unknown; send(command: never): Promise<unknown> }, command: unknown): Promise<Sent> {
  let sent: Sent | undefined;
  const stack = client.middlewareStack as { add(middleware: unknown, options: object): void };
  stack.add(
    () => async (args: { request: { hostname: string; headers: Record<string, string> } }) => {
      sent = { hostname: args.request.hostname, authorization: args.request.headers.authorization ?? '' };
      throw new Stopped('stopped before sending');
    },
    { step: 'deserialize', priority: 'low', name: `record-${randomUUID()}` },
  );
  await expect(client.send(command as never)).rejects.toThrow(Stopped);
  return sent!;
}

const savedEnv = { ...process.env };
function useEnvironment(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
  Object.assign(process.env, savedEnv);
});

/** What Lambda sets for a function's role; not DynamoDB Local's fixed credentials. */
const roleCredentials = { AWS_ACCESS_KEY_ID: 'ASIAROLEEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };

/** Every client a function builds, each with one call it makes, built as the wiring builds it. */
const clients = () => {
  const settings = awsClientSettings(process.env);
  return {
    dynamodb: [createDocumentClient(settings), new GetCommand({ TableName: 'main', Key: { pk: 'a', sk: 'b' } })],
    ses: [
      awsClient((c) => new SESClient(c), backgroundCallBounds, settings),
      new SendEmailCommand({ Source: 'a@example.com', Destination: {}, Message: { Subject: { Data: 's' }, Body: {} } }),
    ],
    secretsmanager: [
      awsClient((c) => new SecretsManagerClient(c), backgroundCallBounds, settings),
      new GetSecretValueCommand({ SecretId: 'signing-keys' }),
    ],
    lambda: [
      awsClient((c) => new LambdaClient(c), backgroundCallBounds, settings),
      new InvokeCommand({ FunctionName: 'fn', InvocationType: 'Event' }),
    ],
    s3: [
      awsClient((c) => new S3Client(c), backgroundCallBounds, settings),
      new PutObjectCommand({ Bucket: 'jwks-bucket', Key: 'jwks.json', Body: '{}' }),
    ],
  } as const;
};

describe("endpoints are the SDK's: partitions, FIPS and overrides resolved as AWS documents them", () => {
  const cases: [string, Record<string, string>, Record<keyof ReturnType<typeof clients>, string>][] = [
    [
      'eu-west-1 (aws partition)',
      { AWS_REGION: 'eu-west-1' },
      {
        dynamodb: 'dynamodb.eu-west-1.amazonaws.com',
        ses: 'email.eu-west-1.amazonaws.com',
        secretsmanager: 'secretsmanager.eu-west-1.amazonaws.com',
        lambda: 'lambda.eu-west-1.amazonaws.com',
        s3: 'jwks-bucket.s3.eu-west-1.amazonaws.com',
      },
    ],
    [
      'cn-north-1 (aws-cn partition, amazonaws.com.cn)',
      { AWS_REGION: 'cn-north-1' },
      {
        dynamodb: 'dynamodb.cn-north-1.amazonaws.com.cn',
        ses: 'email.cn-north-1.amazonaws.com.cn',
        secretsmanager: 'secretsmanager.cn-north-1.amazonaws.com.cn',
        lambda: 'lambda.cn-north-1.amazonaws.com.cn',
        s3: 'jwks-bucket.s3.cn-north-1.amazonaws.com.cn',
      },
    ],
    [
      // GovCloud's DynamoDB endpoint is itself the FIPS endpoint; the others carry -fips.
      'us-gov-west-1 with AWS_USE_FIPS_ENDPOINT=true',
      { AWS_REGION: 'us-gov-west-1', AWS_USE_FIPS_ENDPOINT: 'true' },
      {
        dynamodb: 'dynamodb.us-gov-west-1.amazonaws.com',
        ses: 'email-fips.us-gov-west-1.amazonaws.com',
        secretsmanager: 'secretsmanager-fips.us-gov-west-1.amazonaws.com',
        lambda: 'lambda-fips.us-gov-west-1.amazonaws.com',
        s3: 'jwks-bucket.s3-fips.us-gov-west-1.amazonaws.com',
      },
    ],
    [
      'us-east-1 with AWS_USE_FIPS_ENDPOINT=true',
      { AWS_REGION: 'us-east-1', AWS_USE_FIPS_ENDPOINT: 'true' },
      {
        dynamodb: 'dynamodb-fips.us-east-1.amazonaws.com',
        ses: 'email-fips.us-east-1.amazonaws.com',
        secretsmanager: 'secretsmanager-fips.us-east-1.amazonaws.com',
        lambda: 'lambda-fips.us-east-1.amazonaws.com',
        s3: 'jwks-bucket.s3-fips.us-east-1.amazonaws.com',
      },
    ],
  ];

  it.each(cases)('%s', async (_label, environment, expected) => {
    useEnvironment({ ...roleCredentials, DYNAMODB_ENDPOINT: undefined, ...environment });
    const region = environment.AWS_REGION!;
    const built = clients();
    for (const [service, [client, command]] of Object.entries(built)) {
      const sent = await requestOf(client, command);
      expect({ service, hostname: sent.hostname }).toEqual({ service, hostname: expected[service as keyof typeof expected] });
      // Signed for that region with the role's credentials.
      expect(sent.authorization).toContain(`Credential=ASIAROLEEXAMPLE/`);
      expect(sent.authorization).toContain(`/${region}/`);
    }
  });

  it('AWS_ENDPOINT_URL_DYNAMODB is honoured, and a non-local endpoint is signed with the real credentials', async () => {
    useEnvironment({
      ...roleCredentials,
      AWS_REGION: 'eu-west-1',
      DYNAMODB_ENDPOINT: undefined,
      AWS_ENDPOINT_URL_DYNAMODB: 'https://vpce-0abc.dynamodb.eu-west-1.vpce.amazonaws.com',
    });
    const sent = await requestOf(createDocumentClient(awsClientSettings(process.env)), clients().dynamodb[1]);
    expect(sent.hostname).toBe('vpce-0abc.dynamodb.eu-west-1.vpce.amazonaws.com');
    expect(sent.authorization).toContain('Credential=ASIAROLEEXAMPLE/');
  });

  it("the project's own DYNAMODB_ENDPOINT gets fixed local credentials only on a loopback host (DynamoDB Local)", async () => {
    useEnvironment({ ...roleCredentials, AWS_REGION: 'eu-west-1' });
    const remote = await requestOf(createDocumentClient({ endpoint: 'https://dynamodb.internal.example' }), clients().dynamodb[1]);
    expect(remote).toMatchObject({ hostname: 'dynamodb.internal.example' });
    expect(remote.authorization).toContain('Credential=ASIAROLEEXAMPLE/');
    const local = await requestOf(createDocumentClient({ endpoint: 'http://127.0.0.1:8000' }), clients().dynamodb[1]);
    expect(local.authorization).toContain('Credential=local/');
  });

  it('CloudFront (the key-rotation job) resolves its global endpoint', async () => {
    useEnvironment({ ...roleCredentials, AWS_REGION: 'eu-west-1' });
    const client = awsClient((c) => new CloudFrontClient(c), backgroundCallBounds, awsClientSettings(process.env));
    const command = new CreateInvalidationCommand({
      DistributionId: 'E1',
      InvalidationBatch: { CallerReference: 'r', Paths: { Quantity: 1, Items: ['/jwks.json'] } },
    });
    expect((await requestOf(client, command)).hostname).toBe('cloudfront.amazonaws.com');
  });
});

/** A DynamoDB stand-in on loopback: `answer` decides what each request gets. */
async function standIn(
  answer: (request: IncomingMessage, response: ServerResponse, index: number) => void,
): Promise<{ server: Server; endpoint: string; requests: () => number }> {
  let count = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => answer(request, response, count++));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}
const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('the invocation deadline bounds every AWS call (a stalled dependency never outlives the function)', () => {
  it('a DynamoDB that never answers: the call is aborted at the deadline, and it counts as unavailable (503)', async () => {
    const { server, endpoint, requests } = await standIn(() => undefined);
    try {
      const db = createDocumentClient({ endpoint });
      const started = performance.now();
      // 1.6 s left, less the 1 s margin: the deadline falls before the first attempt's 2 s bound.
      const error = await runWithinDeadline(1600, () => db.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))).catch(
        (e: unknown) => e,
      );
      const elapsed = performance.now() - started;
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).name).toBe('AbortError');
      expect(isServiceUnavailable(error)).toBe(true);
      expect(requests()).toBe(1);
      expect(elapsed).toBeLessThan(1600);
    } finally {
      await stop(server);
    }
  });

  it('a deadline already past: nothing is sent', async () => {
    const { server, endpoint, requests } = await standIn((_req, res) => res.end('{}'));
    try {
      const db = createDocumentClient({ endpoint });
      const error = await runWithinDeadline(500, () => db.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))).catch(
        (e: unknown) => e,
      );
      expect(isServiceUnavailable(error)).toBe(true);
      expect(requests()).toBe(0);
    } finally {
      await stop(server);
    }
  });

  it("without an invocation (a script), an attempt is still bounded (2 s) and retried as the SDK's standard mode does", async () => {
    const { server, endpoint, requests } = await standIn((_req, res, index) => {
      if (index === 0) return; // the first attempt stalls
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
    });
    try {
      const result = await createDocumentClient({ endpoint }).send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }));
      expect(result.Item).toBeUndefined();
      expect(result.$metadata.attempts).toBe(2);
      expect(requests()).toBe(2);
    } finally {
      await stop(server);
    }
  });

  it("the deadline's signal takes a listener per call in flight, the activity read's 16 shard queries at once, with no leak warning in the log", async () => {
    const { server, endpoint } = await standIn((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}'),
    );
    try {
      const db = createDocumentClient({ endpoint });
      const signal = await runWithinDeadline(10_000, async () => {
        await Promise.all(Array.from({ length: activityShardCount }, () => db.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))));
        return invocationDeadline()!;
      });
      // Node warns of a possible leak past this many listeners on one EventTarget (its default is 10).
      expect(getMaxListeners(signal)).toBeGreaterThanOrEqual(activityShardCount);
    } finally {
      await stop(server);
    }
  });
});

describe('keep-alive: a socket that died while idle (a Lambda freeze) costs one retried attempt, never a failed call', () => {
  it('the server drops the reused connection without answering; the SDK sends again on a new one', async () => {
    const sockets = new Set<unknown>();
    const { server, endpoint, requests } = await standIn((request, response, index) => {
      sockets.add(request.socket);
      if (index === 1) {
        request.socket.destroy(); // the second request, on the kept-alive socket: reset, no reply
        return;
      }
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
    });
    try {
      const db = createDocumentClient({ endpoint });
      await db.send(new PutCommand({ TableName: 't', Item: { pk: 'a' } }));
      const second = await db.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }));
      expect(second.$metadata.attempts).toBe(2);
      expect(requests()).toBe(3);
      expect(sockets.size).toBe(2);
    } finally {
      await stop(server);
    }
  });
});

describe('errors: what the SDK would retry is "unavailable"; what it would not is ours to handle', () => {
  it('a condition failure from DynamoDB Local is not unavailable; throttling and a lost reply are', async () => {
    const db = createDocumentClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    const { ConditionalCheckFailedException, ProvisionedThroughputExceededException } = await import('@aws-sdk/client-dynamodb');
    const { tableDefinitions } = await import('../../lambdas/adapters/dynamodb/table-definitions');
    const table = process.env[tableDefinitions.ephemeral.envVar]!;
    const key = { pk: `AWSCLIENT#${randomUUID()}`, sk: 'X' };
    await db.send(new PutCommand({ TableName: table, Item: key }));
    const conflict = await db
      .send(new PutCommand({ TableName: table, Item: key, ConditionExpression: 'attribute_not_exists(pk)' }))
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConditionalCheckFailedException);
    expect(isServiceUnavailable(conflict)).toBe(false);
    expect(
      isServiceUnavailable(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: { httpStatusCode: 400 } })),
    ).toBe(true);
    expect(isServiceUnavailable(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: {} }))).toBe(true);
    expect(isServiceUnavailable(new Error('a bug of ours'))).toBe(false);
  });
});

/** Records each request (method, path, headers, body) and answers with `reply`. */
async function recorder(
  reply: (request: IncomingMessage, body: Buffer) => { status: number; headers?: Record<string, string>; body?: string },
) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      const answer = reply(request, body);
      response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('what each adapter asks of its service, through the real SDK client (a loopback stand-in answers)', () => {
  it('the logo store (S3): PutObject with the bytes and the caching headers, then DeleteObject, on first use', async () => {
    const { server, endpoint, seen } = await recorder(() => ({ status: 200 }));
    try {
      useEnvironment({ ...roleCredentials, AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_S3: endpoint });
      const { S3SiteAssetStore } = await import('../../lambdas/adapters/s3-site-assets');
      const store = new S3SiteAssetStore('jwks-bucket', awsClientSettings(process.env));
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]);
      await store.put('branding/logo-abc.png', bytes, 'image/png');
      await store.delete('branding/logo-abc.png');
      expect(seen.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
        'PUT /jwks-bucket/branding/logo-abc.png',
        'DELETE /jwks-bucket/branding/logo-abc.png',
      ]);
      expect(seen[0]!.headers).toMatchObject({
        'content-type': 'image/png',
        'cache-control': 'public, max-age=31536000, immutable',
        'content-disposition': 'inline',
      });
      expect([...seen[0]!.body]).toEqual([...bytes]);
    } finally {
      await stop(server);
    }
  });

  it('the SES mailer: one SendEmail with the text and the HTML part, and an SES refusal reaches the caller', async () => {
    let refuse = false;
    const { server, endpoint, seen } = await recorder(() =>
      refuse
        ? {
            status: 400,
            headers: { 'content-type': 'text/xml' },
            body: '<ErrorResponse><Error><Type>Sender</Type><Code>MessageRejected</Code><Message>Email address is not verified.</Message></Error></ErrorResponse>',
          }
        : {
            status: 200,
            headers: { 'content-type': 'text/xml' },
            body: '<SendEmailResponse><SendEmailResult><MessageId>m-1</MessageId></SendEmailResult></SendEmailResponse>',
          },
    );
    try {
      useEnvironment({ ...roleCredentials, AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_SES: endpoint });
      const { createSesMailer } = await import('../../lambdas/adapters/ses-mailer');
      const mailer = createSesMailer('no-reply@example.org', awsClientSettings(process.env));
      await mailer.send({ to: 'ada@example.org', subject: 'Your code', text: 'Code: 123456', html: '<p>Code: <b>123456</b></p>' });
      const form = new URLSearchParams(seen[0]!.body.toString('utf8'));
      expect(Object.fromEntries(form)).toMatchObject({
        Action: 'SendEmail',
        Source: 'no-reply@example.org',
        'Destination.ToAddresses.member.1': 'ada@example.org',
        'Message.Subject.Data': 'Your code',
        'Message.Body.Text.Data': 'Code: 123456',
        'Message.Body.Html.Data': '<p>Code: <b>123456</b></p>',
      });
      refuse = true;
      await expect(mailer.send({ to: 'ada@example.org', subject: 's', text: 't' })).rejects.toMatchObject({ name: 'MessageRejected' });
      expect(seen).toHaveLength(2); // a refusal is not retried
    } finally {
      await stop(server);
    }
  });

  it('the background invoker (Lambda): an asynchronous Invoke of the function with the payload', async () => {
    const { server, endpoint, seen } = await recorder(() => ({ status: 202 }));
    try {
      useEnvironment({ ...roleCredentials, AWS_REGION: 'eu-west-1', AWS_ENDPOINT_URL_LAMBDA: endpoint });
      const { createEventInvoker } = await import('../../lambdas/adapters/lambda-invoker');
      await createEventInvoker(
        'tollgate-ForgotPassword',
        awsClientSettings(process.env),
      )('{"backgroundJob":{"kind":"password-reset-mail"}}');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.url).toBe('/2015-03-31/functions/tollgate-ForgotPassword/invocations');
      expect(seen[0]!.headers['x-amz-invocation-type']).toBe('Event');
      expect(seen[0]!.body.toString('utf8')).toBe('{"backgroundJob":{"kind":"password-reset-mail"}}');
    } finally {
      await stop(server);
    }
  });
});
