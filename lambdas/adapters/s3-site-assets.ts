/**
 * The site's assets (the logo) in the JWKS bucket, under `branding/`, served by its CloudFront
 * distribution.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { SiteAssetStore } from '../core/site/ports';
import type { LogoContentType } from '../core/site/settings';
import { type AwsClientSettings, boundToInvocation, clientConfig } from './aws/sdk-clients';

/** A PUT or DELETE of one key is idempotent, so the SDK's three attempts are safe; a logo is at most a few hundred KiB. */
export const s3CallBounds = { maxAttempts: 3, connectionTimeout: 1000, requestTimeout: 5000 } as const;

type S3Module = typeof import('@aws-sdk/client-s3');

/**
 * The S3 client is imported on the first upload or removal, not with the module: it is the
 * largest SDK client these functions hold (with its checksum and S3 middleware; its size and
 * import CPU are in bench/README.md), and the dashboard function that carries it serves every page,
 * while a logo changes a few times in a deployment's life.
 */
export class S3SiteAssetStore implements SiteAssetStore {
  private loaded: Promise<{ s3: Pick<S3Client, 'send'>; commands: S3Module }> | undefined;

  constructor(
    private readonly bucket: string,
    private readonly settings: AwsClientSettings = {},
  ) {}

  private load() {
    return (this.loaded ??= import('@aws-sdk/client-s3').then((commands) => ({
      s3: boundToInvocation(new commands.S3Client(clientConfig(s3CallBounds, this.settings)), this.settings),
      commands,
    })));
  }

  async put(key: string, bytes: Uint8Array, contentType: LogoContentType): Promise<void> {
    const { s3, commands } = await this.load();
    await s3.send(
      new commands.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentType: contentType,
        // The key is the content's hash: new bytes, new key, so caches may keep it forever.
        CacheControl: 'public, max-age=31536000, immutable',
        ContentDisposition: 'inline',
      }),
    );
  }

  async delete(key: string): Promise<void> {
    const { s3, commands } = await this.load();
    await s3.send(new commands.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
