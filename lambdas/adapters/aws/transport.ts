/**
 * One signed HTTPS request to an AWS endpoint over a keep-alive connection, with a bound on
 * connecting and on the whole exchange. No retries here (retry.ts), no protocol (the
 * service modules): the wire, and the errors the SDK raised for the same failures.
 *
 * Why our own HTTP/1.1 (http-pool.ts, http-reply.ts) rather than node:http(s) request(): CPU
 * per call, two DynamoDB calls per token. Sequential GetItem against DynamoDB Local, process
 * CPU per call on Node 24: http.request() over a keep-alive Agent 0.175 ms, this client on it
 * 0.315 ms, the same request as one string on a raw keep-alive socket 0.085 ms; our client
 * on its own pool now costs what that raw socket does, and a whole GetCommand went from 0.36
 * to ~0.17 ms (`npm run bench -- dynamodb-client`). undici would do it too, but bundles to
 * 730 KiB with WASM, far past the cold-start budget. node:net and node:tls also import faster
 * than node:http + node:https; an https endpoint still loads node:tls at its first call.
 */
import type * as http from 'node:http';
import { Pool } from './http-pool';
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
  /**
   * A CA certificate (PEM) trusted besides Node's bundled roots, for a test's self-signed TLS
   * server. Verification itself is never switched off.
   * @default none
   */
  readonly additionalCa?: string;
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

/** Header names, values and the path go on the wire verbatim: a CR or LF would end the line early. */
const lineBreak = /[\r\n\0]/;

export class AwsTransport {
  private readonly signer: SigV4Signer;
  private readonly url: URL;
  private readonly pool: Pool;

  constructor(private readonly options: AwsEndpointOptions) {
    this.signer = new SigV4Signer(options.service, options.region, options.encodePathAgain ?? true);
    this.url = new URL(options.endpoint);
    const https = this.url.protocol === 'https:';
    if (!https && this.url.protocol !== 'http:') throw new Error(`unsupported endpoint protocol ${this.url.protocol}`);
    this.pool = new Pool({
      protocol: https ? 'https:' : 'http:',
      hostname: this.url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(this.url.port) || (https ? 443 : 80),
      // Keep-alive: a TLS handshake per call would cost more CPU than the call itself.
      maxSockets: 64,
      idleTimeout: 60_000,
      connectTimeout: options.connectTimeout,
      requestTimeout: options.requestTimeout,
      service: options.service,
      ...(options.additionalCa ? { additionalCa: options.additionalCa } : {}),
    });
  }

  send(request: AwsHttpRequest): Promise<AwsHttpReply> {
    const { body } = request;
    // The host header is the one signed: url.host, with the port when it is not the default.
    const headers = this.signer.sign(
      { method: request.method, host: this.url.host, path: request.path, headers: request.headers, body },
      this.options.credentials(),
    );
    if (lineBreak.test(request.path) || request.path.includes(' ')) return Promise.reject(new TypeError('invalid request path'));
    let head = `${request.method} ${request.path} HTTP/1.1\r\n`;
    for (const name in headers) {
      const value = headers[name]!;
      if (lineBreak.test(value) || lineBreak.test(name))
        return Promise.reject(new TypeError(`invalid character in header ${JSON.stringify(name)}`));
      head += `${name}: ${value}\r\n`;
    }
    // UTF-8 throughout, as signed. A string body joins the head in one string; bytes in one buffer.
    if (typeof body === 'string') return this.pool.exchange(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return this.pool.exchange(Buffer.concat([Buffer.from(`${head}content-length: ${body.byteLength}\r\n\r\n`), body]));
  }

  /** Closes the connections (a process that wants to exit). */
  close(): void {
    this.pool.close();
  }
}
