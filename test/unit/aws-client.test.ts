/**
 * Our signed AWS client (lambdas/adapters/aws) against a local HTTP server that answers as
 * DynamoDB would, and the signer against AWS's published known-answer vector and AWS's own
 * signer (@smithy/signature-v4). The DynamoDB behaviour itself is tested against DynamoDB
 * Local by every handler test; here: what DynamoDB Local never does (fail, stall, reset).
 */
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDocumentClient, GetCommand, PutCommand, TransactWriteCommand } from '../../lambdas/adapters/aws/dynamodb';
import { retryKind } from '../../lambdas/adapters/aws/retry';
import { objectPath, s3Bucket } from '../../lambdas/adapters/aws/s3';
import { sendEmailForm, sesClient } from '../../lambdas/adapters/aws/ses';
import { SigV4Signer } from '../../lambdas/adapters/aws/sigv4';
import { isServiceUnavailable } from '../../lambdas/adapters/aws-errors';

describe('SigV4 (AWS Signature Version 4)', () => {
  test("matches AWS's published known-answer vector get-vanilla (sigv4 test suite)", () => {
    const headers = new SigV4Signer('service', 'us-east-1').sign(
      { method: 'GET', host: 'example.amazonaws.com', path: '/', headers: {}, body: '' },
      { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
      new Date('2015-08-30T12:36:00Z'),
    );
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, ' +
        'Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  test.each([
    [
      'a DynamoDB call with a session token',
      'dynamodb',
      '/',
      { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem' },
    ],
    [
      'a Lambda Invoke of a function ARN (path segments encoded twice for signing)',
      'lambda',
      '/2015-03-31/functions/arn%3Aaws%3Alambda%3Aeu-west-1%3A1%3Afunction%3Af/invocations',
      { 'x-amz-invocation-type': 'Event' },
    ],
    [
      'header values with outer and inner runs of spaces (trimmed, inner runs made one)',
      'dynamodb',
      '/',
      { 'content-type': ' application/x-amz-json-1.0 ', 'x-amz-target': 'DynamoDB_20120810.GetItem', 'x-amz-meta-note': 'a   b \t c' },
    ],
  ])('agrees with @smithy/signature-v4 on %s', async (_what, service, path, extra) => {
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret/key+example', sessionToken: 'token=session' };
    const now = new Date('2026-11-24T05:40:00Z');
    const body = '{"TableName":"t","Key":{"pk":{"S":"ü"}}}';
    const ours = new SigV4Signer(service, 'eu-west-1').sign(
      { method: 'POST', host: `${service}.eu-west-1.amazonaws.com`, path, headers: extra, body },
      credentials,
      now,
    );
    const theirs = await new SignatureV4({ service, region: 'eu-west-1', credentials, sha256: Sha256, applyChecksum: false }).sign(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: `${service}.eu-west-1.amazonaws.com`,
        path,
        headers: { ...extra, host: `${service}.eu-west-1.amazonaws.com` },
        body,
        query: {},
      },
      { signingDate: now },
    );
    expect(ours.authorization).toBe(theirs.headers.authorization);
  });

  test('x-amz-date follows the clock from one request to the next (the text is reused only within one second)', () => {
    const signer = new SigV4Signer('dynamodb', 'us-east-1');
    const request = { method: 'POST', host: 'h', path: '/', headers: {}, body: '' };
    const dateAt = (at: string) => signer.sign(request, { accessKeyId: 'A', secretAccessKey: 's' }, new Date(at))['x-amz-date'];
    expect(dateAt('2026-11-24T10:00:00.100Z')).toBe('20261124T100000Z');
    expect(dateAt('2026-11-24T10:00:00.900Z')).toBe('20261124T100000Z');
    expect(dateAt('2026-11-24T10:00:01.000Z')).toBe('20261124T100001Z');
    expect(dateAt('2026-11-25T00:00:00.000Z')).toBe('20261125T000000Z');
  });

  test('the derived signing key is reused while the day and the secret stay the same, and derived anew when either changes', () => {
    const signer = new SigV4Signer('dynamodb', 'us-east-1');
    const request = { method: 'POST', host: 'h', path: '/', headers: {}, body: '' };
    const sign = (secret: string, at: string) =>
      signer.sign(request, { accessKeyId: 'A', secretAccessKey: secret }, new Date(at)).authorization;
    const fresh = (secret: string, at: string) =>
      new SigV4Signer('dynamodb', 'us-east-1').sign(request, { accessKeyId: 'A', secretAccessKey: secret }, new Date(at)).authorization;
    for (const [secret, at] of [
      ['s1', '2026-11-24T01:00:00Z'],
      ['s1', '2026-11-24T23:00:00Z'],
      ['s2', '2026-11-24T23:00:00Z'],
      ['s2', '2026-11-25T00:00:01Z'],
    ] as const) {
      expect(sign(secret, at)).toBe(fresh(secret, at));
    }
  });
});

/** A stand-in for DynamoDB's endpoint: each request is answered by the next scripted reply. */
type Reply = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface FakeDynamo {
  readonly client: DynamoDocumentClient;
  readonly requests: { headers: IncomingMessage['headers']; body: string }[];
  connections: number;
}
let server: Server | undefined;
let client: DynamoDocumentClient | undefined;
afterEach(async () => {
  client?.destroy();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = client = undefined;
});

async function fakeDynamo(replies: Reply[], options: { requestTimeout?: number } = {}): Promise<FakeDynamo> {
  const fake = { requests: [] as FakeDynamo['requests'], connections: 0 } as { -readonly [K in keyof FakeDynamo]: FakeDynamo[K] };
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      fake.requests.push({ headers: req.headers, body });
      (replies.shift() ?? ok({}))(req, res, body);
    });
  });
  server.on('connection', () => (fake.connections += 1));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  client = new DynamoDocumentClient({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    credentials: () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'session' }),
    requestTimeout: options.requestTimeout ?? 3000,
    retry: { baseDelay: 1, throttlingBaseDelay: 1 },
  });
  fake.client = client;
  return fake;
}
const ok =
  (payload: object): Reply =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(payload));
const fail =
  (status: number, type: string, fields: object = {}): Reply =>
  (_req, res) =>
    res
      .writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'REQ1' })
      .end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `${type} happened`, ...fields }));
const reset: Reply = (req) => req.socket.destroy();
const stall: Reply = () => undefined;

const get = new GetCommand({ TableName: 't', Key: { pk: 'A', sk: 'B' } });
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Record<string, unknown> & Error,
  );

describe('DynamoDB client: wire format', () => {
  test('sends a signed JSON 1.0 POST with the operation in X-Amz-Target and the marshalled input, and unmarshals the reply', async () => {
    const fake = await fakeDynamo([ok({ Item: { pk: { S: 'A' }, n: { N: '7' }, tags: { SS: ['x'] } } })]);
    const out = await fake.client.send(get);
    expect(out.Item).toEqual({ pk: 'A', n: 7, tags: new Set(['x']) });
    const [request] = fake.requests;
    expect(request!.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(request!.headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(request!.headers['x-amz-security-token']).toBe('session');
    expect(request!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(request!.body)).toEqual({ TableName: 't', Key: { pk: { S: 'A' }, sk: { S: 'B' } } });
  });

  test('drops undefined attributes (removeUndefinedValues, as the adapters were written for)', async () => {
    const fake = await fakeDynamo([ok({})]);
    await fake.client.send(new PutCommand({ TableName: 't', Item: { pk: 'A', gone: undefined } }));
    expect(JSON.parse(fake.requests[0]!.body).Item).toEqual({ pk: { S: 'A' } });
  });

  test('keeps one keep-alive connection for consecutive calls', async () => {
    const fake = await fakeDynamo([ok({}), ok({}), ok({})]);
    for (let i = 0; i < 3; i++) await fake.client.send(get);
    expect(fake.connections).toBe(1);
  });

  test('a transaction carries one idempotency token (ClientRequestToken) on every attempt, so a resend after a lost reply is not applied twice', async () => {
    const fake = await fakeDynamo([reset, ok({})]);
    await fake.client.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 't', Item: { pk: 'A' } } }] }));
    const tokens = fake.requests.map((r) => JSON.parse(r.body).ClientRequestToken);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens[1]).toBe(tokens[0]);
  });
});

describe('DynamoDB client: errors and retries (the SDK standard mode the code relied on)', () => {
  test('ConditionalCheckFailedException is thrown at once, named as DynamoDB names it, with the old Item of the reply', async () => {
    const fake = await fakeDynamo([fail(400, 'ConditionalCheckFailedException', { Item: { pk: { S: 'A' } } })]);
    const error = await caught(fake.client.send(get));
    expect(error?.name).toBe('ConditionalCheckFailedException');
    expect(error?.Item).toEqual({ pk: { S: 'A' } });
    expect(error?.$metadata).toEqual({ httpStatusCode: 400, requestId: 'REQ1', attempts: 1 });
    expect(fake.requests).toHaveLength(1);
    expect(isServiceUnavailable(error)).toBe(false);
  });

  test('TransactionCanceledException carries CancellationReasons; ValidationException is not retried either', async () => {
    const reasons = [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }];
    const fake = await fakeDynamo([
      fail(400, 'TransactionCanceledException', { CancellationReasons: reasons }),
      fail(400, 'ValidationException'),
    ]);
    const canceled = await caught(fake.client.send(get));
    expect(canceled?.name).toBe('TransactionCanceledException');
    expect(canceled?.CancellationReasons).toEqual(reasons);
    expect((await caught(fake.client.send(get)))?.name).toBe('ValidationException');
    expect(fake.requests).toHaveLength(2);
  });

  test.each([
    ['a 500', fail(500, 'InternalServerError')],
    ['throttling (400 ProvisionedThroughputExceededException)', fail(400, 'ProvisionedThroughputExceededException')],
    ['a reset connection (reply lost)', reset],
  ])('%s is retried and the next attempt answers', async (_what, first) => {
    const fake = await fakeDynamo([first, ok({ Item: { pk: { S: 'A' } } })]);
    const out = await fake.client.send(get);
    expect(out.Item).toEqual({ pk: 'A' });
    expect(out.$metadata.attempts).toBe(2);
    expect(fake.requests).toHaveLength(2);
  });

  test('after 4 failed attempts (the SDK default for DynamoDB) the last error reaches the caller, recognisable as the service being unavailable', async () => {
    const fake = await fakeDynamo([
      fail(503, 'ServiceUnavailable'),
      fail(500, 'InternalServerError'),
      fail(503, 'ServiceUnavailable'),
      fail(500, 'InternalServerError'),
      ok({}),
    ]);
    const error = await caught(fake.client.send(get));
    expect(error?.name).toBe('InternalServerError');
    expect((error?.$metadata as { attempts?: number } | undefined)?.attempts).toBe(4);
    expect(fake.requests).toHaveLength(4);
    expect(isServiceUnavailable(error)).toBe(true);
  });

  test('a reply that does not come within the request timeout is a TimeoutError, retried like a lost reply', async () => {
    const fake = await fakeDynamo([stall, ok({ Item: { pk: { S: 'A' } } })], { requestTimeout: 150 });
    const out = await fake.client.send(get);
    expect(out.Item).toEqual({ pk: 'A' });
    expect(fake.requests).toHaveLength(2);
  });

  test('when every attempt times out, the caller gets TimeoutError after 4 attempts, recognisable as the service being unavailable', async () => {
    const fake = await fakeDynamo([stall, stall, stall, stall], { requestTimeout: 100 });
    const error = await caught(fake.client.send(get));
    expect(error?.name).toBe('TimeoutError');
    expect((error?.$metadata as { attempts?: number } | undefined)?.attempts).toBe(4);
    expect(isServiceUnavailable(error)).toBe(true);
  });
});

describe('retry classification', () => {
  test.each([
    [{ name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }, 'throttling'],
    [{ name: 'Anything', $metadata: { httpStatusCode: 429 } }, 'throttling'],
    [{ name: 'InternalServerError', $metadata: { httpStatusCode: 500 } }, 'transient'],
    [{ name: 'TimeoutError', code: 'ETIMEDOUT', $metadata: { attempts: 1 } }, 'transient'],
    [{ name: 'Error', code: 'ECONNREFUSED', $metadata: { attempts: 1 } }, 'transient'],
    [{ name: 'ConditionalCheckFailedException', $metadata: { httpStatusCode: 400 } }, undefined],
    [{ name: 'ResourceNotFoundException', $metadata: { httpStatusCode: 400 } }, undefined],
  ])('%o → %s', (error, kind) => {
    expect(retryKind(error)).toBe(kind);
  });
});

test('SES SendEmail goes as the query protocol form SES v1 reads (UTF-8 subject and text)', () => {
  const form = new URLSearchParams(sendEmailForm({ from: 'a@example.test', to: 'b@example.test', subject: 'Süß', text: 'line 1\nline 2' }));
  expect(Object.fromEntries(form)).toEqual({
    Action: 'SendEmail',
    Version: '2010-12-01',
    Source: 'a@example.test',
    'Destination.ToAddresses.member.1': 'b@example.test',
    'Message.Subject.Data': 'Süß',
    'Message.Subject.Charset': 'UTF-8',
    'Message.Body.Text.Data': 'line 1\nline 2',
    'Message.Body.Text.Charset': 'UTF-8',
  });
});

test('SES: a rejected message (query protocol XML error) is thrown with its code and not retried; a sent one resolves with its MessageId', async () => {
  const fake = await fakeDynamo([
    (_req, res) =>
      res
        .writeHead(400, { 'content-type': 'text/xml' })
        .end(
          '<ErrorResponse><Error><Type>Sender</Type><Code>MessageRejected</Code><Message>Email address is not verified.</Message></Error><RequestId>r1</RequestId></ErrorResponse>',
        ),
    (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end('<SendEmailResponse><SendEmailResult><MessageId>m-1</MessageId></SendEmailResult></SendEmailResponse>'),
  ]);
  const ses = sesClient({
    region: 'eu-west-1',
    endpoint: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`,
    credentials: () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }),
    maxAttempts: 2,
    connectTimeout: 1000,
    requestTimeout: 1000,
  });
  const message = { from: 'a@example.test', to: 'b@example.test', subject: 's', text: 't' };
  const error = await caught(ses.sendEmail(message));
  expect(error?.name).toBe('MessageRejected');
  expect(error?.message).toBe('Email address is not verified.');
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]!.headers.authorization).toMatch(/\/eu-west-1\/ses\/aws4_request/);
  expect(await ses.sendEmail(message)).toBe('m-1');
});

describe('S3 PutObject and DeleteObject (the logo, issue 14)', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret/key+example', sessionToken: 'token=session' };
  const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0xfe]);
  const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

  test('agrees with @smithy/signature-v4 configured for S3 (path signed as sent, payload hash header) on a binary PUT', async () => {
    const now = new Date('2026-11-24T07:00:00Z');
    const host = 'assets-bucket.s3.eu-west-1.amazonaws.com';
    const path = objectPath('branding/logo-0a1b.png');
    const headers = { 'content-type': 'image/png', 'x-amz-content-sha256': sha256(bytes) };
    const ours = new SigV4Signer('s3', 'eu-west-1', false).sign({ method: 'PUT', host, path, headers, body: bytes }, credentials, now);
    const theirs = await new SignatureV4({ service: 's3', region: 'eu-west-1', credentials, sha256: Sha256, uriEscapePath: false }).sign(
      { method: 'PUT', protocol: 'https:', hostname: host, path, headers: { ...headers, host }, body: bytes, query: {} },
      { signingDate: now },
    );
    expect(ours.authorization).toBe(theirs.headers.authorization);
  });

  test('sends the bytes as they are with their headers, deletes, and throws an S3 error (XML) without retrying a 403', async () => {
    const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: Buffer }[] = [];
    const replies: Reply[] = [
      (_req, res) => res.writeHead(200).end(),
      (_req, res) => res.writeHead(204).end(),
      (_req, res) =>
        res
          .writeHead(403, { 'content-type': 'application/xml' })
          .end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>'),
    ];
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        replies.shift()!(req, res, '');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const bucket = s3Bucket({
      bucket: 'assets-bucket',
      region: 'eu-west-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      credentials: () => credentials,
    });
    await bucket.putObject('branding/logo-0a1b.png', bytes, {
      'content-type': 'image/png',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    await bucket.deleteObject('branding/logo-0a1b.png');
    const error = await caught(bucket.deleteObject('branding/other.png'));
    expect(error?.name).toBe('AccessDenied');
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/branding/logo-0a1b.png' });
    expect(Uint8Array.from(seen[0]!.body)).toEqual(bytes);
    expect(seen[0]!.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-amz-content-sha256': sha256(bytes),
      'x-amz-security-token': 'token=session',
    });
    expect(seen[0]!.headers.authorization).toMatch(
      /\/eu-west-1\/s3\/aws4_request, SignedHeaders=cache-control;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token,/,
    );
    expect(seen[1]).toMatchObject({ method: 'DELETE', url: '/branding/logo-0a1b.png' });
    expect(seen[1]!.headers['x-amz-content-sha256']).toBe(sha256(''));
  });
});
