/**
 * The site's assets (the logo) in the JWKS bucket, under `branding/`, served by its CloudFront
 * distribution. The only file that imports the S3 client, so it can be swapped for a smaller
 * signed-HTTP one; wiring/site.ts loads it on the first upload, not at cold start.
 */
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { SiteAssetStore } from '../core/site/logo';
import type { LogoContentType } from '../core/site/settings';

export class S3SiteAssetStore implements SiteAssetStore {
  private readonly s3: S3Client;

  constructor(
    private readonly bucket: string,
    region: string | undefined,
  ) {
    this.s3 = new S3Client({ region: region ?? 'us-east-1' });
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
