/**
 * Resource policies on the keys and credentials (behaviour CUSTODY-1): each names the only
 * principals that may read or change it, so that an account-wide IAM grant (a role with
 * `secretsmanager:GetSecretValue` or `s3:PutObject` on `*`, common in CI and developer roles)
 * reaches none of them. Each statement denies everyone whose `aws:PrincipalArn` is not listed;
 * the listed principals still need their own IAM grant (the functions have one each).
 *
 * `aws:PrincipalArn`, not a `Principal` element: a role named as a principal is stored as its
 * unique id, so a role replaced by a deploy would silently lose access; an ARN compared as a
 * string keeps matching the role of that name. It is a role's ARN for its sessions, and
 * `ArnNotLike` allows the `*` wildcards operators need for IAM Identity Center roles.
 *
 * Left to IAM on purpose: `UpdateSecret`, `DeleteSecret` and the resource policy itself, which
 * CloudFormation calls on deploys (description, encryption key, these statements); every such change
 * to the signing key raises the KeyMaterialChanged alarm (behaviour CUSTODY-3).
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';

/** Reading a secret's value. */
export const secretReadActions = ['secretsmanager:GetSecretValue'];
/** Changing which value a secret holds (a new version, or another version made current, or rotation). */
export const secretWriteActions = [
  'secretsmanager:PutSecretValue',
  'secretsmanager:UpdateSecretVersionStage',
  'secretsmanager:RotateSecret',
];
/** Writing, replacing, restoring or deleting an object (and its versions, tags and holds). */
export const objectWriteActions = ['s3:PutObject*', 's3:DeleteObject*', 's3:RestoreObject', 's3:ReplicateObject', 's3:ReplicateDelete'];

export interface KeyCustodyProps {
  readonly signingKey: {
    readonly secret: secretsmanager.ISecret;
    /** The routes that sign, the rotation job and the deploy-time function that creates the set. */
    readonly users: readonly lambda.IFunction[];
  };
  readonly deviceCookieKey: {
    readonly secret: secretsmanager.ISecret;
    /** The routes that say `deviceCookies`. */
    readonly readers: readonly lambda.IFunction[];
  };
  readonly adminCredentials: {
    readonly secret: secretsmanager.ISecret;
    /** The deploy-time seed. */
    readonly writer: lambda.IFunction;
  };
  readonly jwks: {
    readonly bucket: s3.IBucket;
    readonly objectKey: string;
    /** The rotation job and the deploy-time function. */
    readonly writers: readonly lambda.IFunction[];
    readonly siteAssetKeyPattern: string;
    /** The logo rows. */
    readonly siteAssetWriters: readonly lambda.IFunction[];
  };
  /**
   * IAM principal ARNs (wildcards allowed) of the people or automation that hand over, rotate and
   * remove the bootstrap admin credentials and the device-cookie key. Empty: those two are left to IAM
   * for people (the device-cookie key's reads stay with its functions).
   */
  readonly operators: readonly string[];
}

export function restrictKeyAccess(props: KeyCustodyProps): void {
  const { signingKey, deviceCookieKey, adminCredentials, jwks, operators } = props;
  const roles = (fns: readonly lambda.IFunction[]) => fns.map((fn) => fn.role!.roleArn);

  // No person needs the private keys: rotation is automated. A break-glass change of this policy is
  // itself a change the KeyMaterialChanged alarm reports.
  denyAllBut(signingKey.secret, 'OnlyTheSigningFunctions', [...secretReadActions, ...secretWriteActions], roles(signingKey.users));

  denyAllBut(deviceCookieKey.secret, 'OnlySignInFunctionsAndOperatorsRead', secretReadActions, [
    ...roles(deviceCookieKey.readers),
    ...operators,
  ]);
  if (operators.length > 0) {
    denyAllBut(deviceCookieKey.secret, 'OnlyOperatorsRotate', secretWriteActions, operators);
    // Until an operator is named, a person must read the credentials once after the first deploy.
    denyAllBut(
      adminCredentials.secret,
      'OnlyTheSeedAndOperators',
      [...secretReadActions, ...secretWriteActions],
      [...roles([adminCredentials.writer]), ...operators],
    );
  }

  denyObjectWritesAllBut(jwks.bucket, 'OnlyKeyPublishersWriteJwks', jwks.objectKey, roles(jwks.writers));
  denyObjectWritesAllBut(jwks.bucket, 'OnlyLogoRowsWriteBranding', jwks.siteAssetKeyPattern, roles(jwks.siteAssetWriters));
}

const exceptFor = (principalArns: readonly string[]) => ({ ArnNotLike: { 'aws:PrincipalArn': [...principalArns] } });

function denyAllBut(secret: secretsmanager.ISecret, sid: string, actions: readonly string[], principalArns: readonly string[]): void {
  secret.addToResourcePolicy(
    new iam.PolicyStatement({
      sid,
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: [...actions],
      resources: ['*'],
      conditions: exceptFor(principalArns),
    }),
  );
}

function denyObjectWritesAllBut(bucket: s3.IBucket, sid: string, keyPattern: string, principalArns: readonly string[]): void {
  bucket.addToResourcePolicy(
    new iam.PolicyStatement({
      sid,
      effect: iam.Effect.DENY,
      principals: [new iam.AnyPrincipal()],
      actions: objectWriteActions,
      resources: [bucket.arnForObjects(keyPattern)],
      conditions: exceptFor(principalArns),
    }),
  );
}
