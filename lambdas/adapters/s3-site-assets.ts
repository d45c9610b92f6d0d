/**
 * The site's assets (the logo) in the JWKS bucket, under `branding/`, served by its CloudFront
 * distribution; written through our signed S3 client (adapters/aws/s3.ts), not the AWS SDK.
 */
import type { SiteAssetStore } from '../core/site/logo';
import type { LogoContentType } from '../core/site/settings';
import { s3Bucket, type S3BucketOptions } from './aws/s3';

export class S3SiteAssetStore implements SiteAssetStore {
  private readonly s3: ReturnType<typeof s3Bucket>;

  constructor(options: S3BucketOptions) {
    this.s3 = s3Bucket(options);
  }

  async put(key: string, bytes: Uint8Array, contentType: LogoContentType): Promise<void> {
    await this.s3.putObject(key, bytes, {
      'content-type': contentType,
      // The key is the content's hash: new bytes, new key, so caches may keep it forever.
      'cache-control': 'public, max-age=31536000, immutable',
      'content-disposition': 'inline',
    });
  }

  async delete(key: string): Promise<void> {
    await this.s3.deleteObject(key);
  }
}
