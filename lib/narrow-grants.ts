/**
 * Grants narrowed to the one call a function makes (behaviour IAM-5). The L2 `grant*` helpers
 * grant families of actions (`grantWrite` on a secret adds `UpdateSecret`, `grantPut` on a bucket
 * `PutObjectRetention` and `PutObjectLegalHold`, `grantDelete` `DeleteObjectVersion`, an SES
 * identity's `grantSendEmail` `SendRawEmail`); the functions call `PutSecretValue`, `GetObject`,
 * `PutObject`, `DeleteObject` and SES v1 `SendEmail` only. A customer-managed key, where one is
 * set, gets the same KMS grant the L2 helper would give.
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';

/** `secretsmanager:PutSecretValue` on the secret (the key set, the bootstrap credentials). */
export function grantSecretPut(secret: secretsmanager.ISecret, grantee: iam.IGrantable): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['secretsmanager:PutSecretValue'], resources: [secret.secretArn] }),
  );
  secret.encryptionKey?.grantEncrypt(grantee);
}

/** One object action (`s3:GetObject`, `s3:PutObject`, `s3:DeleteObject`) on the keys matching `keyPattern`. */
export function grantObjects(
  bucket: s3.IBucket,
  grantee: iam.IGrantable,
  actions: readonly ('s3:GetObject' | 's3:PutObject' | 's3:DeleteObject')[],
  keyPattern: string,
): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: [...actions], resources: [bucket.arnForObjects(keyPattern)] }),
  );
  if (bucket.encryptionKey) {
    if (actions.includes('s3:GetObject')) bucket.encryptionKey.grantDecrypt(grantee);
    if (actions.includes('s3:PutObject')) bucket.encryptionKey.grantEncryptDecrypt(grantee);
  }
}
