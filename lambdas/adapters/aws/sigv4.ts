/**
 * AWS Signature Version 4 for the few JSON/query requests the request path makes (DynamoDB,
 * Secrets Manager, SES, Lambda, and S3 for the logo). Ours rather than @smithy/signature-v4: that package now
 * depends on @smithy/core, bundles to 140 KiB and takes ~28 ms to import on its own (an empty
 * module: 6 ms), the cold-start cost this client exists to remove. The signing steps follow
 * the published algorithm (docs.aws.amazon.com "Create a signed AWS API request"); the unit
 * test checks AWS's own known-answer vector and agreement with @smithy/signature-v4.
 */
import { createHmac, createSecretKey, hash, type KeyObject } from 'node:crypto';

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Lambda's role credentials are temporary: they come with a session token. */
  readonly sessionToken?: string;
}

export interface RequestToSign {
  readonly method: string;
  readonly host: string;
  /** Absolute path, URI-encoded as it goes on the wire (signed encoded once more, as every service but S3 wants). */
  readonly path: string;
  readonly query?: string;
  /** Lower-case names; all are signed. `host` and `x-amz-date` are added. */
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array;
}

const algorithm = 'AWS4-HMAC-SHA256';

/** RFC 3986 encoding of one path segment (encodeURIComponent leaves !'()* alone). */
const encodeSegment = (segment: string): string =>
  encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// One-shot hashing (crypto.hash) costs about half of createHash().update().digest() for the
// small bodies signed here; the signing key is a KeyObject made once a day, not re-imported per HMAC.
const sha256Hex = (data: string | Uint8Array): string => hash('sha256', data, 'hex');
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** `20150830T123600Z` */
export const amzDate = (time: Date): string =>
  time
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Header values as SigV4 canonicalises them: trimmed, inner runs of spaces made one. */
const canonicalValue = (value: string): string => {
  const trimmed = value.trim();
  return /\s\s/.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
};

/**
 * A signer for one service in one region. The derived signing key depends only on the secret,
 * the day, the region and the service: it is computed once a day (four HMACs), not per request.
 */
export class SigV4Signer {
  private cachedKey: { readonly scope: string; readonly secret: string; readonly key: KeyObject } | undefined;
  /** The last request's second and its x-amz-date: most calls share a second with the one before. */
  private lastDate: { readonly second: number; readonly text: string } | undefined;

  /**
   * `encodePathAgain`: every service but S3 signs the path URI-encoded a second time; S3 signs it
   * as sent, and takes the payload's hash from `x-amz-content-sha256` (a header S3 requires).
   */
  constructor(
    private readonly service: string,
    private readonly region: string,
    private readonly encodePathAgain = true,
  ) {}

  /** The headers to send: the given ones plus host, x-amz-date, the session token and authorization. */
  sign(request: RequestToSign, credentials: AwsCredentials, now: Date = new Date()): Record<string, string> {
    const second = Math.floor(now.getTime() / 1000);
    const date = this.lastDate?.second === second ? this.lastDate.text : amzDate(now);
    this.lastDate = { second, text: date };
    const day = date.slice(0, 8);
    const headers: Record<string, string> = { ...request.headers, host: request.host, 'x-amz-date': date };
    if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
    const names = Object.keys(headers).sort();
    let canonicalHeaders = '';
    for (const name of names) canonicalHeaders += `${name}:${canonicalValue(headers[name]!)}\n`;
    const signedHeaders = names.join(';');
    const canonicalRequest = [
      request.method,
      request.path === '/' || !this.encodePathAgain ? request.path : request.path.split('/').map(encodeSegment).join('/'),
      request.query ?? '',
      canonicalHeaders,
      signedHeaders,
      headers['x-amz-content-sha256'] ?? sha256Hex(request.body),
    ].join('\n');
    const scope = `${day}/${this.region}/${this.service}/aws4_request`;
    const stringToSign = `${algorithm}\n${date}\n${scope}\n${sha256Hex(canonicalRequest)}`;
    const signature = createHmac('sha256', this.signingKey(scope, day, credentials.secretAccessKey))
      .update(stringToSign, 'utf8')
      .digest('hex');
    headers.authorization = `${algorithm} Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
    return headers;
  }

  private signingKey(scope: string, day: string, secret: string): KeyObject {
    const cached = this.cachedKey;
    if (cached && cached.scope === scope && cached.secret === secret) return cached.key;
    // Kept as a KeyObject: on Node 24 createHmac() with a Buffer key imports it anew on every
    // call, 15 µs against 2.3 µs with a KeyObject (100,000 HMACs of a string to sign).
    const key = createSecretKey(hmac(hmac(hmac(hmac(`AWS4${secret}`, day), this.region), this.service), 'aws4_request'));
    this.cachedKey = { scope, secret, key };
    return key;
  }
}
