/**
 * Behaviour CUSTODY-2: the optional customer-managed KMS key of the tables, the secrets and every
 * log group of the server. The key policy is the default one (the account's IAM decides), and each
 * function's use of the key is a statement in its own role: the L2 grants (TableV2, Secret with an
 * encryptionKey) would name the roles of the nested stacks in the key policy, a dependency cycle,
 * and TableV2 cannot take a customer-managed key without the stack's region at synth.
 * Log groups are set by an aspect, because they are made in many places (one per function) and
 * nothing reading CloudWatch Logs needs the key (the service decrypts).
 */
import { Aspects, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';

export function customerManagedKey(scope: Construct): kms.Key {
  const stack = Stack.of(scope);
  const key = new kms.Key(scope, 'EncryptionKey', {
    description: 'Tables, secrets and logs of the authorization server (behaviour CUSTODY-2)',
    enableKeyRotation: true,
    // The tables, secrets and logs it encrypts are retained: without the key they are unreadable.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  // CloudWatch Logs encrypts with the key itself, only for log groups of this account and region.
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      sid: 'CloudWatchLogsOfThisAccount',
      principals: [new iam.ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: [
        'kms:Encrypt',
        'kms:Decrypt',
        'kms:ReEncryptFrom',
        'kms:ReEncryptTo',
        'kms:GenerateDataKey',
        'kms:GenerateDataKeyWithoutPlaintext',
        'kms:DescribeKey',
      ],
      resources: ['*'],
      conditions: {
        ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*` },
      },
    }),
  );
  Aspects.of(scope).add({
    visit(node: IConstruct) {
      if (node instanceof logs.CfnLogGroup && node.kmsKeyId === undefined) node.kmsKeyId = key.keyArn;
    },
  });
  return key;
}

/** What DynamoDB needs of a caller for a table under the key (the actions of TableV2's own grants). */
export const tableKeyUse = (key: kms.IKey, write: boolean): iam.PolicyStatement =>
  new iam.PolicyStatement({
    // Named one by one: wildcards would be IAM5 findings on every function's policy.
    actions: [
      'kms:Decrypt',
      'kms:DescribeKey',
      ...(write ? ['kms:Encrypt', 'kms:ReEncryptFrom', 'kms:ReEncryptTo', 'kms:GenerateDataKey'] : []),
    ],
    resources: [key.keyArn],
  });

export interface EncryptedSecret {
  readonly secret: secretsmanager.ISecret;
  /** Functions that read it (GetSecretValue). */
  readonly readers: readonly lambda.IFunction[];
  /** Functions that read and write it. */
  readonly writers: readonly lambda.IFunction[];
}

/** Puts each secret under the key; its functions may use the key only through Secrets Manager. */
export function encryptSecrets(key: kms.IKey, secrets: readonly EncryptedSecret[]): void {
  for (const { secret, readers, writers } of secrets) {
    (secret.node.defaultChild as secretsmanager.CfnSecret).kmsKeyId = key.keyArn;
    const stack = Stack.of(secret);
    const use = (write: boolean) =>
      new iam.PolicyStatement({
        actions: ['kms:Decrypt', ...(write ? ['kms:Encrypt', 'kms:GenerateDataKey'] : [])],
        resources: [key.keyArn],
        conditions: { StringEquals: { 'kms:ViaService': `secretsmanager.${stack.region}.amazonaws.com` } },
      });
    for (const fn of readers) fn.addToRolePolicy(use(false));
    for (const fn of writers) fn.addToRolePolicy(use(true));
  }
}
