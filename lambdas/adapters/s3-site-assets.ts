/**
 * The site's assets (the logo) in the JWKS bucket, under `branding/`, served by its CloudFront
 * distribution.
 */
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SiteAssetStore } from '../core/site/logo';
import type { LogoContentType } from '../core/site/settings';
import { type AwsClientSettings, boundToInvocation, clientConfig } from './aws/sdk-clients';

/** A PUT or DELETE of one key is idempotent, so the SDK's three attempts are safe; a logo is at most a few hundred KiB. */
export const s3CallBounds = { maxAttempts: 3, connectionTimeout: 1000, requestTimeout: 5000 } as const;

export class S3SiteAssetStore implements SiteAssetStore {
  private readonly s3: S3Client;

  constructor(
    private readonly bucket: string,
    settings: AwsClientSettings = {},
  ) {
    this.s3 = boundToInvocation(new S3Client(clientConfig(s3CallBounds, settings)), settings);
  }

  async put(key: string, bytes: Uint8Array, contentType: LogoContentType): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
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
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
