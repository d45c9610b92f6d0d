/**
 * Keep-alive HTTP/1.1 connections to one endpoint, one exchange at a time on each (no
 * pipelining): up to `maxSockets` of them, the idle ones reused last-in first-out (the most
 * recently used is the least likely to have been closed by the server) and closed after
 * `idleTimeout` without traffic; more callers than sockets wait in line. Each socket's
 * listeners are attached once and act on the exchange in flight, and each connection re-arms
 * one timer (refresh()) per exchange rather than creating one with a closure: 0.07-0.12 µs
 * against 0.13-0.2 µs for setTimeout + clearTimeout (Node 20 and 24, 200,000 of each), both
 * nothing beside the ~85 µs of a call, so the simpler bookkeeping decided it. What is left
 * per request is the one write and the reply's parse (transport.ts has the numbers).
 *
 * Failures are the errors retry.ts classifies: a socket error, or an end before the whole
 * reply, is a network error with Node's code (ECONNRESET when the server hung up), which the
 * retrier retries; an exchange or a connect over its bound is an AwsTimeoutError and its
 * socket is destroyed, never reused.
 */
import { isIP, connect as netConnect, type Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import { AwsTimeoutError, networkError } from './errors';
import { ReplyParser } from './http-reply';

export interface PoolOptions {
  readonly protocol: 'http:' | 'https:';
  readonly hostname: string;
  readonly port: number;
  readonly maxSockets: number;
  /** Milliseconds to open a connection (TCP and TLS). */
  readonly connectTimeout: number;
  /** Milliseconds for one exchange, from the write to the reply's last byte. */
  readonly requestTimeout: number;
  /** Milliseconds an idle connection is kept. */
  readonly idleTimeout: number;
  /** Names the service in error messages. */
  readonly service: string;
  /** A CA certificate (PEM) trusted besides Node's bundled roots: tests with a self-signed server. */
  readonly additionalCa?: string;
}

export interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

type Resolve = (reply: RawReply) => void;
type Reject = (error: Error) => void;

interface Waiter {
  readonly message: string | Buffer;
  readonly resolve: Resolve;
  readonly reject: Reject;
  readonly timer: NodeJS.Timeout;
}

const hangUp = (message: string) => networkError(Object.assign(new Error(message), { code: 'ECONNRESET' }));

class Connection {
  dead = false;
  private parser: ReplyParser | undefined;
  private resolve: Resolve | undefined;
  private reject: Reject | undefined;
  /** Bounds the exchange in flight: refresh()ed at each start, so it fires `requestTimeout` after the latest one. */
  private readonly exchangeTimer: NodeJS.Timeout;
  private connectTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    readonly socket: Socket,
    connectEvent: 'connect' | 'secureConnect',
  ) {
    const { options } = pool;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
    // Node's idle timer on the socket, reset by every read and write, unref'd: it closes a connection left idle.
    socket.setTimeout(options.idleTimeout);
    socket.on('timeout', () => {
      if (!this.parser) this.close();
    });
    socket.on('data', (packet: Buffer) => this.onData(packet));
    socket.on('end', () => this.onEnd());
    socket.on('close', () => this.onEnd());
    socket.on('error', (error: Error) => {
      if (this.parser) this.fail(networkError(error));
      else this.close();
    });
    this.connectTimer = setTimeout(
      () => this.fail(new AwsTimeoutError(`could not connect to ${options.service} within ${options.connectTimeout} ms`)),
      options.connectTimeout,
    );
    socket.once(connectEvent, () => clearTimeout(this.connectTimer));
    this.exchangeTimer = setTimeout(() => {
      if (this.parser) this.fail(new AwsTimeoutError(`no reply from ${options.service} within ${options.requestTimeout} ms`));
    }, options.requestTimeout);
    this.exchangeTimer.unref();
  }

  start(message: string | Buffer, resolve: Resolve, reject: Reject): void {
    this.parser = new ReplyParser();
    this.resolve = resolve;
    this.reject = reject;
    this.exchangeTimer.refresh();
    // Head and body in one write: one packet for the usual small request. A socket still
    // connecting buffers it; a stale one fails it with EPIPE or ECONNRESET ('error' below).
    this.socket.write(message);
  }

  /** Ends the exchange in flight with `error` and drops the connection. */
  fail(error: Error): void {
    const reject = this.reject;
    this.parser = this.resolve = this.reject = undefined;
    this.close();
    reject?.(error);
  }

  /** Drops the connection (idempotent). */
  close(): void {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.connectTimer);
    clearTimeout(this.exchangeTimer);
    this.socket.destroy();
    this.pool.forget(this);
  }

  private onData(packet: Buffer): void {
    const parser = this.parser;
    if (!parser) {
      // Bytes with nothing asked (a server's 408 before it hangs up): the stream cannot be trusted.
      this.close();
      return;
    }
    try {
      parser.feed(packet);
    } catch (error) {
      this.fail(networkError(error as Error));
      return;
    }
    if (parser.done) this.finish(parser);
  }

  /** The server ended the stream: the reply's end if it is framed by the end, else a lost reply. */
  private onEnd(): void {
    const parser = this.parser;
    if (!parser) this.close();
    else if (parser.endsWithConnection) {
      parser.finishAtEnd();
      this.finish(parser);
    } else this.fail(hangUp(`${this.pool.options.service} closed the connection before the whole reply`));
  }

  private finish(parser: ReplyParser): void {
    const resolve = this.resolve!;
    this.parser = this.resolve = this.reject = undefined;
    const reply: RawReply = { status: parser.status, headers: parser.headers, body: parser.text() };
    if (parser.reusable && !this.dead) this.pool.release(this);
    else this.close();
    resolve(reply);
  }
}

export class Pool {
  /** Idle connections, the most recently used last. */
  private readonly idle: Connection[] = [];
  private readonly open = new Set<Connection>();
  private readonly waiters: Waiter[] = [];
  /** The latest TLS session (ticket) the endpoint gave: a new connection resumes it instead of a full handshake, as Node's https Agent does. */
  private tlsSession: Buffer | undefined;
  private secureContext: SecureContext | undefined;

  constructor(readonly options: PoolOptions) {}

  /** Sends `message` (a whole request) and reads the reply. */
  exchange(message: string | Buffer): Promise<RawReply> {
    return new Promise<RawReply>((resolve, reject) => {
      const idle = this.idle.pop();
      if (idle) {
        idle.socket.ref();
        idle.start(message, resolve, reject);
      } else if (this.open.size < this.options.maxSockets) {
        this.connect().start(message, resolve, reject);
      } else {
        const timer = setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index >= 0) this.waiters.splice(index, 1);
          reject(new AwsTimeoutError(`no free connection to ${this.options.service} within ${this.options.requestTimeout} ms`));
        }, this.options.requestTimeout);
        const waiter: Waiter = { message, resolve, reject, timer };
        this.waiters.push(waiter);
      }
    });
  }

  /** A connection whose exchange ended and that can carry another. */
  release(connection: Connection): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      clearTimeout(waiter.timer);
      connection.start(waiter.message, waiter.resolve, waiter.reject);
      return;
    }
    // An idle socket must not keep the process alive (as Node's keep-alive Agent does).
    connection.socket.unref();
    this.idle.push(connection);
  }

  /** A connection that closed: its place goes to the next waiter, on a new connection. */
  forget(connection: Connection): void {
    this.open.delete(connection);
    const index = this.idle.indexOf(connection);
    if (index >= 0) this.idle.splice(index, 1);
    const waiter = this.waiters.length > 0 && this.open.size < this.options.maxSockets ? this.waiters.shift() : undefined;
    if (waiter) {
      clearTimeout(waiter.timer);
      this.connect().start(waiter.message, waiter.resolve, waiter.reject);
    }
  }

  /** Closes every connection; exchanges in flight and waiting fail as a hang-up. */
  close(): void {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(hangUp('client closed'));
    }
    for (const connection of [...this.open]) connection.fail(hangUp('client closed'));
  }

  private connect(): Connection {
    const { protocol, hostname: host, port, additionalCa } = this.options;
    let connection: Connection;
    if (protocol === 'https:') {
      // node:tls only for https (AWS); DynamoDB Local is plain http. Certificate checks stay on (Node's default).
      const tls = process.getBuiltinModule('node:tls');
      const socket = tls.connect({
        host,
        port,
        // SNI names the host (RFC 6066 forbids an IP address there).
        ...(isIP(host) ? {} : { servername: host }),
        // Built once: a `ca` list passed per connection would parse every root certificate each time.
        ...(additionalCa
          ? { secureContext: (this.secureContext ??= tls.createSecureContext({ ca: [...tls.rootCertificates, additionalCa] })) }
          : {}),
        ...(this.tlsSession ? { session: this.tlsSession } : {}),
      });
      socket.on('session', (session: Buffer) => {
        this.tlsSession = session;
      });
      // A handshake that failed may have failed on the session offered: the next one starts afresh.
      socket.once('error', () => {
        if (!socket.authorized) this.tlsSession = undefined;
      });
      connection = new Connection(this, socket, 'secureConnect');
    } else {
      connection = new Connection(this, netConnect({ host, port }), 'connect');
    }
    this.open.add(connection);
    return connection;
  }
}
