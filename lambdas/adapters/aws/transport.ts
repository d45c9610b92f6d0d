/**
 * One signed HTTPS request to an AWS endpoint over a keep-alive connection, with a bound on
 * connecting and on the whole exchange. No retries here (retry.ts), no protocol (the
 * service modules): the wire, and the errors the SDK raised for the same failures.
 */
import type * as http from 'node:http';
import * as https from 'node:https';
import { AwsTimeoutError, networkError } from './errors';
import { type AwsCredentials, SigV4Signer } from './sigv4';

export interface AwsEndpointOptions {
  /** The signing name: dynamodb, secretsmanager, ses, lambda. */
  readonly service: string;
  readonly region: string;
  /** The endpoint's origin, e.g. https://dynamodb.eu-west-1.amazonaws.com or DynamoDB Local's http://127.0.0.1:8000. */
  readonly endpoint: string;
  /** Read per request: Lambda's role credentials come from the environment. */
  readonly credentials: () => AwsCredentials;
  /** Milliseconds to open a connection (TCP and TLS). */
  readonly connectTimeout: number;
  /** Milliseconds for the whole exchange, from sending to the last byte of the reply. */
  readonly requestTimeout: number;
  /** False for S3, which signs the path as sent (sigv4.ts). */
  readonly encodePathAgain?: boolean;
}

export interface AwsHttpRequest {
  readonly method: 'POST' | 'GET' | 'PUT' | 'DELETE';
  readonly path: string;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array;
}

export interface AwsHttpReply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** Credentials from the variables Lambda sets for the function's role. */
export function credentialsFromEnv(env: Readonly<Record<string, string | undefined>>): AwsCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new Error('AWS credentials missing: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are unset');
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

export class AwsTransport {
  private readonly signer: SigV4Signer;
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(private readonly options: AwsEndpointOptions) {
    this.signer = new SigV4Signer(options.service, options.region, options.encodePathAgain ?? true);
    this.url = new URL(options.endpoint);
    // AWS endpoints are https; plain http is DynamoDB Local's. node:http is fetched only then: on
    // Node 24 (Lambda's runtime) importing node:http as well as node:https costs ~25 ms more CPU
    // at every cold start (farm-bench, import of both against node:https alone).
    const transport = this.url.protocol === 'https:' ? https : process.getBuiltinModule('node:http');
    // Keep-alive: a TLS handshake per call would cost more CPU than the call itself.
    this.agent = new transport.Agent({ keepAlive: true, maxSockets: 64, timeout: 60_000 });
    this.request = transport.request;
  }

  send(request: AwsHttpRequest): Promise<AwsHttpReply> {
    const { url, options } = this;
    const headers = this.signer.sign(
      { method: request.method, host: url.host, path: request.path, headers: request.headers, body: request.body },
      options.credentials(),
    );
    headers['content-length'] = String(Buffer.byteLength(request.body));
    return new Promise<AwsHttpReply>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(error);
      };
      const req = this.request({
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port || undefined,
        method: request.method,
        path: request.path,
        headers,
        agent: this.agent,
      });
      const timer = setTimeout(
        () => fail(new AwsTimeoutError(`no reply from ${options.service} within ${options.requestTimeout} ms`)),
        options.requestTimeout,
      );
      req.once('socket', (socket) => {
        // A reused keep-alive socket is already connected; only a new one must connect in time.
        if (!socket.connecting) return;
        const connectTimer = setTimeout(
          () => fail(new AwsTimeoutError(`could not connect to ${options.service} within ${options.connectTimeout} ms`)),
          options.connectTimeout,
        );
        socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
        socket.once('close', () => clearTimeout(connectTimer));
      });
      req.once('error', (error) => fail(networkError(error)));
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', (error) => fail(networkError(error)));
        res.once('aborted', () => fail(networkError(Object.assign(new Error('reply aborted'), { code: 'ECONNRESET' }))));
        res.once('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(request.body);
    });
  }

  /** Closes idle keep-alive connections (a process that wants to exit). */
  close(): void {
    this.agent.destroy();
  }
}
