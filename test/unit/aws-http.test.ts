/**
 * Our HTTP/1.1 client for AWS calls (lambdas/adapters/aws/http-pool.ts, http-reply.ts, under
 * AwsTransport) against a node:net stand-in server that answers with scripted bytes: replies
 * cut into small packets, chunked framing (RFC 9112 section 7.1), framing by the connection's
 * end, keep-alive reuse and its limits, and the failures retry.ts must see as it saw Node's.
 * One TLS server with a certificate made by openssl proves certificate checks stay on.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { DynamoDocumentClient, GetCommand } from '../../lambdas/adapters/aws/dynamodb';
import { maxHeadBytes } from '../../lambdas/adapters/aws/http-reply';
import { Pool, type PoolOptions } from '../../lambdas/adapters/aws/http-pool';
import { retryKind } from '../../lambdas/adapters/aws/retry';
import { type AwsHttpRequest, AwsTransport } from '../../lambdas/adapters/aws/transport';

interface Received {
  /** Index of the connection it came on, in accept order. */
  readonly connection: number;
  readonly text: string;
  readonly head: string;
  readonly body: string;
}
type Answer = (socket: Socket, request: Received) => void | Promise<void>;

interface StandIn {
  port: number;
  readonly sockets: Socket[];
  readonly requests: Received[];
  /** Packets of the request bytes as they arrived. */
  packets: number;
}

const servers: Server[] = [];
const closers: { close(): void }[] = [];
afterEach(async () => {
  for (const closer of closers.splice(0)) closer.close();
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A server that frames each request by its Content-Length and hands it to `answer`. */
async function standIn(answer: Answer, tlsOptions?: { key: string; cert: string }): Promise<StandIn> {
  const stand: StandIn = { port: 0, sockets: [], requests: [], packets: 0 };
  const onSocket = (socket: Socket) => {
    const connection = stand.sockets.push(socket) - 1;
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      stand.packets += 1;
      pending = Buffer.concat([pending, data]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.subarray(0, end).toString('utf8');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const request = { connection, head, body: pending.subarray(end + 4, end + 4 + length).toString('utf8'), text: '' };
        request.text = pending.subarray(0, end + 4 + length).toString('utf8');
        pending = pending.subarray(end + 4 + length);
        stand.requests.push(request);
        void answer(socket, request);
      }
    });
  };
  const server = tlsOptions ? createTlsServer(tlsOptions, onSocket) : createNetServer(onSocket);
  server.on('tlsClientError', () => undefined);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stand.port = (server.address() as AddressInfo).port;
  closers.push({
    close: () => {
      for (const socket of stand.sockets) socket.destroy();
    },
  });
  return stand;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Writes `bytes` cut at `cuts`, with a pause between the pieces so each leaves as its own packet. */
async function writeInPieces(socket: Socket, bytes: Buffer, cuts: number[]): Promise<void> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    socket.write(bytes.subarray(from, cut));
    from = cut;
    await pause(5);
  }
}

const reply = (body: string, extra = '') =>
  Buffer.from(
    `HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
const echo: Answer = (socket, request) => void socket.write(reply(JSON.stringify({ got: request.body })));

function transportTo(
  port: number,
  options: { requestTimeout?: number; connectTimeout?: number; scheme?: string; host?: string; additionalCa?: string } = {},
) {
  const transport = new AwsTransport({
    service: 'dynamodb',
    region: 'us-east-1',
    endpoint: `${options.scheme ?? 'http'}://${options.host ?? '127.0.0.1'}:${port}`,
    credentials: () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }),
    connectTimeout: options.connectTimeout ?? 1000,
    requestTimeout: options.requestTimeout ?? 3000,
    ...(options.additionalCa ? { additionalCa: options.additionalCa } : {}),
  });
  closers.push(transport);
  return transport;
}

function poolTo(port: number, options: Partial<PoolOptions> = {}) {
  const pool = new Pool({
    protocol: 'http:',
    hostname: '127.0.0.1',
    port,
    maxSockets: 64,
    connectTimeout: 1000,
    requestTimeout: 3000,
    idleTimeout: 60_000,
    service: 'test',
    ...options,
  });
  closers.push(pool);
  return pool;
}
const message = (body: string) => `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const post = (body: string | Uint8Array = '{"a":1}'): AwsHttpRequest => ({
  method: 'POST',
  path: '/',
  headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.GetItem' },
  body,
});
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as Error & { code?: string; $metadata?: unknown },
  );

describe('AWS HTTP/1.1 client: requests', () => {
  test('sends head and body in one write, with Content-Length and the signed host (url.host) (RFC 9112 section 3.2, SigV4)', async () => {
    const stand = await standIn(echo);
    const transport = transportTo(stand.port);
    const body = '{"k":"ü€"}';
    const answer = await transport.send(post(body));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ got: body });
    const [request] = stand.requests;
    expect(request!.head).toMatch(/^POST \/ HTTP\/1\.1\r\n/);
    expect(request!.head).toContain(`\r\nhost: 127.0.0.1:${stand.port}\r\n`);
    expect(request!.head).toContain(`\r\ncontent-length: ${Buffer.byteLength(body)}`);
    expect(request!.head).toMatch(
      /\r\nauthorization: AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, /,
    );
    expect(stand.packets).toBe(1);
  });

  test('a byte body (S3 PutObject) goes as its bytes, with its length', async () => {
    const stand = await standIn((socket) => void socket.write(reply('')));
    const bytes = new Uint8Array([0, 255, 13, 10, 0xc3]);
    await transportTo(stand.port).send({ method: 'PUT', path: '/logo.png', headers: {}, body: bytes });
    expect(stand.requests[0]!.head).toContain('\r\ncontent-length: 5');
    expect(stand.requests[0]!.head).toMatch(/^PUT \/logo\.png HTTP\/1\.1\r\n/);
  });

  test('a header value holding CR or LF is refused before anything is sent (no header injection)', async () => {
    const stand = await standIn(echo);
    const transport = transportTo(stand.port);
    const error = await caught(
      transport.send({ method: 'POST', path: '/', headers: { 'x-amz-target': 'GetItem\r\nx-evil: 1' }, body: '' }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(retryKind(error)).toBeUndefined();
    expect(stand.sockets).toHaveLength(0);
  });
});

describe('AWS HTTP/1.1 client: reading replies (RFC 9112)', () => {
  test('a reply cut into packets inside the head, inside a header name and inside a UTF-8 character reads the same (section 6)', async () => {
    const body = JSON.stringify({ Item: { name: { S: 'Zoë 😀 €' } } });
    const bytes = reply(body, 'x-amzn-requestid: REQ1\r\n');
    const cuts = [3, 10, 20, 41, bytes.indexOf('\r\n\r\n') + 2, bytes.indexOf('😀') + 1, bytes.indexOf('😀') + 3, bytes.length - 1];
    const stand = await standIn((socket) => writeInPieces(socket, bytes, cuts));
    const answer = await transportTo(stand.port).send(post());
    expect(answer.body).toBe(body);
    expect(answer.headers['x-amzn-requestid']).toBe('REQ1');
    expect(answer.headers['content-type']).toBe('application/x-amz-json-1.0');
  });

  test('a reply sent one byte at a time reads the same', async () => {
    const body = '{"é":"ü"}';
    const bytes = reply(body);
    const stand = await standIn((socket) => {
      const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
      let from = 0;
      // No pauses here: the pieces may merge or not, the result must not change.
      for (const cut of [...cuts, bytes.length]) socket.write(bytes.subarray(from, (from = cut)));
    });
    expect((await transportTo(stand.port).send(post())).body).toBe(body);
  });

  test('Transfer-Encoding: chunked with chunk extensions and trailers, cut inside a size line and a character, then the connection is reused (section 7.1)', async () => {
    const text = '{"Items":["Ωmega","日本語"]}';
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from('日')) + 1;
    const chunked = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/x-amz-json-1.0\r\nTransfer-Encoding: chunked\r\n\r\n'),
      Buffer.from(`${split.toString(16)};name="value";flag\r\n`),
      bytes.subarray(0, split),
      Buffer.from(`\r\n${(bytes.length - split).toString(16).toUpperCase()}\r\n`),
      bytes.subarray(split),
      Buffer.from('\r\n0;last\r\nx-amz-checksum-crc32: AAAAAA==\r\nx-other: 1\r\n\r\n'),
    ]);
    const sizeLine = chunked.indexOf(';name=') - 1;
    const stand = await standIn((socket, request) =>
      request.body === 'second'
        ? void socket.write(reply('{}'))
        : writeInPieces(socket, chunked, [sizeLine, sizeLine + 5, split + 80, chunked.length - 20]),
    );
    const transport = transportTo(stand.port);
    const answer = await transport.send(post());
    expect(answer.body).toBe(text);
    expect((await transport.send(post('second'))).body).toBe('{}');
    expect(stand.sockets).toHaveLength(1);
  });

  test('a reply with neither Content-Length nor chunked framing and Connection: close is read to the end, and its connection is not reused (section 6.3)', async () => {
    const stand = await standIn((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n{"part":');
      setTimeout(() => socket.end('"two"}'), 10);
    });
    const transport = transportTo(stand.port);
    expect((await transport.send(post())).body).toBe('{"part":"two"}');
    expect((await transport.send(post())).body).toBe('{"part":"two"}');
    expect(stand.sockets).toHaveLength(2);
  });

  test('Connection: close on a framed reply: the reply is read, the next request goes on a new connection', async () => {
    const stand = await standIn((socket) => void socket.write(reply('{}', 'Connection: close\r\n')));
    const transport = transportTo(stand.port);
    await transport.send(post());
    await transport.send(post());
    expect(stand.sockets).toHaveLength(2);
  });

  test('a 100 Continue before the final reply is skipped (section 9.5, RFC 9110 section 15.2)', async () => {
    const stand = await standIn(
      (socket) => void socket.write(Buffer.concat([Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), reply('{"ok":true}')])),
    );
    const answer = await transportTo(stand.port).send(post());
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('{"ok":true}');
  });

  test(`a head over ${maxHeadBytes} bytes fails cleanly, as a reply error that is not retried`, async () => {
    const stand = await standIn((socket) => void socket.write(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(maxHeadBytes + 10)}\r\n`));
    const error = await caught(transportTo(stand.port).send(post()));
    expect(error.code).toBe('HPE_HEADER_OVERFLOW');
    expect(error.$metadata).toEqual({ attempts: 1 });
    expect(retryKind(error)).toBeUndefined();
  });
});

describe('AWS HTTP/1.1 client: keep-alive pool', () => {
  test('sequential requests share one connection', async () => {
    const stand = await standIn(echo);
    const transport = transportTo(stand.port);
    for (let i = 0; i < 5; i++) expect(JSON.parse((await transport.send(post(`${i}`))).body)).toEqual({ got: `${i}` });
    expect(stand.sockets).toHaveLength(1);
    expect(stand.requests.map((r) => r.connection)).toEqual([0, 0, 0, 0, 0]);
  });

  test('the idle connection used last is reused first (LIFO)', async () => {
    // The first connection answers at once, the second later: the second is the last one released.
    const stand = await standIn((socket, request) => {
      const delay = request.connection === 1 && stand.requests.length <= 2 ? 30 : 0;
      setTimeout(() => socket.write(reply('{}')), delay);
    });
    const pool = poolTo(stand.port);
    await Promise.all([pool.exchange(message('a')), pool.exchange(message('b'))]);
    await pool.exchange(message('c'));
    expect(stand.requests.map((r) => r.connection)).toEqual([0, 1, 1]);
  });

  test('more requests than sockets wait in line and are all answered, each with its own reply', async () => {
    const stand = await standIn((socket, request) => {
      setTimeout(() => socket.write(reply(JSON.stringify({ got: request.body }))), 5);
    });
    const pool = poolTo(stand.port, { maxSockets: 3 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.exchange(message(`r${i}`))));
    expect(answers.map((a) => JSON.parse(a.body).got)).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`));
    expect(stand.sockets).toHaveLength(3);
  });

  test('an idle connection is closed after the idle timeout', async () => {
    const stand = await standIn(echo);
    const pool = poolTo(stand.port, { idleTimeout: 50 });
    await pool.exchange(message('x'));
    const closed = new Promise<void>((resolve) => stand.sockets[0]!.once('close', () => resolve()));
    await closed;
    await pool.exchange(message('y'));
    expect(stand.sockets).toHaveLength(2);
  });

  test('a connection the server closed while idle is dropped, and the next request goes on a new one', async () => {
    const stand = await standIn((socket, request) => {
      socket.write(reply('{}'));
      if (request.connection === 0) socket.end();
    });
    const transport = transportTo(stand.port);
    await transport.send(post());
    await pause(20);
    await transport.send(post());
    expect(stand.requests.map((r) => r.connection)).toEqual([0, 1]);
  });

  test('a pooled connection the server drops as the next request arrives (a stale keep-alive socket): the DynamoDB client retries on a new connection', async () => {
    const stand = await standIn((socket, request) => {
      if (request.connection === 0 && stand.requests.length > 1) return void socket.destroy();
      socket.write(reply('{"Item":{"pk":{"S":"A"}}}'));
    });
    const client = new DynamoDocumentClient({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${stand.port}`,
      credentials: () => ({ accessKeyId: 'AKID', secretAccessKey: 'secret' }),
      retry: { baseDelay: 1 },
    });
    closers.push({ close: () => client.destroy() });
    const get = new GetCommand({ TableName: 't', Key: { pk: 'A' } });
    await client.send(get);
    const out = await client.send(get);
    expect(out.Item).toEqual({ pk: 'A' });
    expect(out.$metadata.attempts).toBe(2);
    expect(stand.requests.map((r) => r.connection)).toEqual([0, 0, 1]);
  });
});

describe('AWS HTTP/1.1 client: failures keep the shapes retry.ts classifies', () => {
  test('a reply cut short (the server hangs up mid-body) is an ECONNRESET network error, retried as transient', async () => {
    const stand = await standIn((socket) => void socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"partial"'));
    const error = await caught(transportTo(stand.port).send(post()));
    expect(error.code).toBe('ECONNRESET');
    expect(error.$metadata).toEqual({ attempts: 1 });
    expect(retryKind(error)).toBe('transient');
  });

  test('a reset before any reply is a network error, retried as transient', async () => {
    const stand = await standIn((socket) => void socket.resetAndDestroy());
    const error = await caught(transportTo(stand.port).send(post()));
    expect(error.code).toBe('ECONNRESET');
    expect(retryKind(error)).toBe('transient');
  });

  test('a refused connection is a network error, retried as transient', async () => {
    const stand = await standIn(echo);
    const port = stand.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const error = await caught(transportTo(port).send(post()));
    expect(error.code).toBe('ECONNREFUSED');
    expect(retryKind(error)).toBe('transient');
  });

  test('a reply slower than the request timeout is a TimeoutError; that connection is destroyed, and its late reply never read as the next one', async () => {
    const stand = await standIn((socket, request) => {
      if (request.body === 'slow') setTimeout(() => socket.write(reply('{"late":true}')), 150);
      else socket.write(reply('{"fresh":true}'));
    });
    const transport = transportTo(stand.port, { requestTimeout: 60 });
    const error = await caught(transport.send(post('slow')));
    expect(error.name).toBe('TimeoutError');
    expect(retryKind(error)).toBe('transient');
    expect((await transport.send(post('next'))).body).toBe('{"fresh":true}');
    expect(stand.requests.map((r) => r.connection)).toEqual([0, 1]);
  });
});

describe('AWS HTTP/1.1 client over TLS', () => {
  let dir: string;
  let key: string;
  let cert: string;
  beforeAll(() => {
    // node:crypto cannot issue X.509 certificates; openssl (Debian) can: one self-signed for localhost.
    dir = mkdtempSync(join(tmpdir(), 'aws-http-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    key = readFileSync(join(dir, 'key.pem'), 'utf8');
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('an untrusted certificate fails the request: verification is on by default (not retried)', async () => {
    const stand = await standIn(echo, { key, cert });
    const error = await caught(transportTo(stand.port, { scheme: 'https', host: 'localhost' }).send(post()));
    expect(error.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(retryKind(error)).toBeUndefined();
    expect(stand.requests).toHaveLength(0);
  });

  test('with the certificate trusted, the request succeeds, sends the host name as SNI and reuses the connection', async () => {
    let servername: string | false | null | undefined;
    const stand = await standIn(
      (socket, request) => {
        servername = (socket as TLSSocket).servername;
        void socket.write(reply(JSON.stringify({ got: request.body })));
      },
      { key, cert },
    );
    const transport = transportTo(stand.port, { scheme: 'https', host: 'localhost', additionalCa: cert });
    expect(JSON.parse((await transport.send(post('1'))).body)).toEqual({ got: '1' });
    expect(JSON.parse((await transport.send(post('2'))).body)).toEqual({ got: '2' });
    expect(servername).toBe('localhost');
    expect(stand.sockets).toHaveLength(1);
    expect(stand.requests[0]!.head).toContain(`\r\nhost: localhost:${stand.port}\r\n`);
  });

  test('a new connection resumes the TLS session of an earlier one (no full handshake), as the https Agent of Node did', async () => {
    const reused: boolean[] = [];
    const stand = await standIn(
      (socket) => {
        reused.push((socket as TLSSocket).isSessionReused());
        socket.end(reply('{}', 'connection: close\r\n'));
      },
      { key, cert },
    );
    const transport = transportTo(stand.port, { scheme: 'https', host: 'localhost', additionalCa: cert });
    for (let i = 0; i < 3; i++) await transport.send(post());
    expect(stand.sockets).toHaveLength(3);
    expect(reused).toEqual([false, true, true]);
  });

  test('a TLS handshake that never completes is a connect TimeoutError within the connect bound, not the request bound', async () => {
    // A plain TCP server: it accepts and never answers the ClientHello.
    const stand = await standIn(echo);
    const error = await caught(
      transportTo(stand.port, { scheme: 'https', host: 'localhost', connectTimeout: 50, requestTimeout: 60_000 }).send(post()),
    );
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toMatch(/could not connect to dynamodb within 50 ms/);
    expect(retryKind(error)).toBe('transient');
  });

  test('a trusted certificate for another name fails: the host name is checked', async () => {
    const stand = await standIn(echo, { key, cert });
    const error = await caught(transportTo(stand.port, { scheme: 'https', host: '127.0.0.1', additionalCa: cert }).send(post()));
    expect(error.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(stand.requests).toHaveLength(0);
  });
});
