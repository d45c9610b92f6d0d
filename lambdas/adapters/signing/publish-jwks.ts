import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { publicJwks, type SigningKeySet } from './key-set';

/** Writes the public half of the key set as the JWKS object CloudFront serves. */
export async function publishJwks(
  s3: Pick<S3Client, 'send'>,
  target: { bucket: string; key: string; maxAgeSeconds: number },
  set: SigningKeySet,
): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: target.bucket,
      Key: target.key,
      Body: JSON.stringify(publicJwks(set)),
      ContentType: 'application/json',
      CacheControl: `public, max-age=${target.maxAgeSeconds}`,
    }),
  );
}
