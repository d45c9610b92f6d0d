/**
 * S3 PutObject and DeleteObject on one bucket (REST, virtual-hosted style) through our signed
 * client: the logo upload routes (issue 14) write the site's assets this way, and
 * @aws-sdk/client-s3 would be most of their cold start (issue 20).
 */
import { createHash } from 'node:crypto';
import { xmlServiceError } from './errors';
import { Retrier } from './retry';
import type { AwsCredentials } from './sigv4';
import { AwsTransport } from './transport';

export interface S3BucketOptions {
  readonly bucket: string;
  readonly region: string;
  readonly credentials: () => AwsCredentials;
  /** Defaults to the bucket's regional virtual-hosted endpoint. */
  readonly endpoint?: string;
}

/** One object key as a path: each segment URI-encoded once (S3 signs the path as sent). */
export const objectPath = (key: string): string =>
  `/${key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/')}`;

export function s3Bucket(options: S3BucketOptions) {
  const transport = new AwsTransport({
    service: 's3',
    region: options.region,
    endpoint: options.endpoint ?? `https://${options.bucket}.s3.${options.region}.amazonaws.com`,
    credentials: options.credentials,
    connectTimeout: 1000,
    requestTimeout: 5000,
    encodePathAgain: false,
  });
  // PUT and DELETE of one key are idempotent, so the standard retries are safe.
  const retrier = new Retrier({ maxAttempts: 3 });
  const send = (method: 'PUT' | 'DELETE', key: string, headers: Record<string, string>, body: Uint8Array | string, ok: number[]) =>
    retrier.run(async () => {
      const payloadHash = createHash('sha256').update(body).digest('hex');
      const reply = await transport.send({
        method,
        path: objectPath(key),
        headers: { ...headers, 'x-amz-content-sha256': payloadHash },
        body,
      });
      if (!ok.includes(reply.status)) throw xmlServiceError(reply.status, reply.body);
    });
  return {
    /** `headers`: lower-case names, e.g. content-type, cache-control. */
    putObject: (key: string, body: Uint8Array, headers: Record<string, string>): Promise<void> => send('PUT', key, headers, body, [200]),
    /** S3 answers 204 whether or not the key existed. */
    deleteObject: (key: string): Promise<void> => send('DELETE', key, {}, '', [200, 204]),
  };
}
