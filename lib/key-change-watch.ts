/**
 * Behaviour CUSTODY-3: a change to the signing key set or to `jwks.json` by anyone but the functions
 * that publish keys raises an alarm.
 *
 * Two ways in, because only one of them works in every account:
 * - **S3 → EventBridge** (no CloudTrail needed): every write or delete of `jwks.json` invokes the
 *   rotation job at once, which compares the published keys with the key set (behaviour CUSTODY-5)
 *   and, invoked this way, fails on any difference after repairing it (KeyRotationErrors alarm).
 *   S3 events do not say who wrote, so the check is on content: the publishers' own writes agree with
 *   the key set and pass, and a foreign write that published exactly the same keys changed nothing.
 * - **CloudTrail → EventBridge**: the Secrets Manager calls that change the signing-key secret
 *   (management events, which any trail logging write management events delivers, e.g. the Control
 *   Tower organization trail), and the S3 calls that write `jwks.json` (data events, only if a trail
 *   logs them for this bucket), made by any principal but the publishers' roles, are written to a log
 *   group whose first line raises the KeyMaterialChanged alarm. The log keeps who, when and from where.
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { AsyncFailures } from './async-failures';

/** Secrets Manager calls that change a secret's value, which version is current, its key or its policy. */
export const secretChangeEvents = [
  'PutSecretValue',
  'UpdateSecret',
  'UpdateSecretVersionStage',
  'RotateSecret',
  'CancelRotateSecret',
  'DeleteSecret',
  'RestoreSecret',
  'PutResourcePolicy',
  'DeleteResourcePolicy',
  'ReplicateSecretToRegions',
  'StopReplicationToReplica',
];
/** S3 calls that write, replace, restore or delete one object (CloudTrail data events). */
export const objectChangeEvents = ['PutObject', 'CopyObject', 'CompleteMultipartUpload', 'DeleteObject', 'RestoreObject', 'PutObjectAcl'];

export interface KeyChangeWatchProps {
  readonly signingKeySecret: secretsmanager.Secret;
  readonly bucket: s3.Bucket;
  readonly objectKey: string;
  /** The rotation job and the deploy-time function: their own changes are expected. */
  readonly publishers: readonly lambda.IFunction[];
  /** The rotation job, invoked on every S3 write or delete of the object to verify it (behaviour CUSTODY-5). */
  readonly verifier: lambda.IFunction;
  readonly logRetention: logs.RetentionDays;
  /** Where an S3 event that cannot reach the rotation job is kept (behaviour OPS-4). */
  readonly failures: AsyncFailures;
}

export class KeyChangeWatch extends Construct {
  /** Every change by another principal, as CloudTrail recorded it; one line is one alarm (KeyMaterialChanged). */
  readonly log: logs.LogGroup;
  readonly secretRule: events.Rule;
  readonly objectRule: events.Rule;
  readonly verifyRule: events.Rule;

  constructor(scope: Construct, id: string, props: KeyChangeWatchProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // Named after the deployment's stack, not the nested stack that may hold the watch (whose name
    // CloudFormation generates): operators look for /aws/events/<stack>-key-changes-….
    const deploymentName = (stack.nestedStackParent ?? stack).stackName;
    const publisherRoles = props.publishers.map((fn) => fn.role!.roleArn);
    // A role session names its role in sessionIssuer; any other identity (a user, the root, a service) is foreign.
    const notAPublisher = {
      $or: [
        { type: [{ 'anything-but': ['AssumedRole'] }] },
        { sessionContext: { sessionIssuer: { arn: [{ 'anything-but': publisherRoles }] } } },
      ],
    };

    // EventBridge writes only to /aws/events/ log groups.
    this.log = new logs.LogGroup(this, 'Changes', {
      logGroupName: `/aws/events/${deploymentName}-key-changes-${this.node.addr.slice(0, 8)}`,
      retention: props.logRetention,
    });

    const secret = props.signingKeySecret;
    // A caller may name the secret by its full ARN, its ARN without the random suffix, or its name.
    const partialArn = stack.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: secret.secretName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.secretRule = new events.Rule(this, 'SigningKeyChanged', {
      description: 'Behaviour CUSTODY-3: the signing-key secret changed by anyone but the rotation job and its deploy-time creator',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detailType: ['AWS API Call via CloudTrail'],
        detail: {
          eventSource: ['secretsmanager.amazonaws.com'],
          eventName: secretChangeEvents,
          requestParameters: { secretId: [secret.secretArn, partialArn, secret.secretName] },
          userIdentity: notAPublisher,
        },
      },
    });
    this.objectRule = new events.Rule(this, 'JwksChanged', {
      description: 'Behaviour CUSTODY-3: jwks.json written or deleted by anyone but the key publishers (needs CloudTrail S3 data events)',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['AWS API Call via CloudTrail'],
        detail: {
          eventSource: ['s3.amazonaws.com'],
          eventName: objectChangeEvents,
          requestParameters: { bucketName: [props.bucket.bucketName], key: [props.objectKey] },
          userIdentity: notAPublisher,
        },
      },
    });
    const toLog = logTarget(this.log);
    this.secretRule.addTarget(toLog);
    this.objectRule.addTarget(toLog);
    // The account's log resource policy letting EventBridge write this group (what the CDK target
    // would install through a custom resource and a function of its own).
    new logs.CfnResourcePolicy(this, 'EventsMayWrite', {
      policyName: `${deploymentName}-key-changes-${this.node.addr.slice(0, 8)}`,
      policyDocument: stack.toJsonString({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: ['events.amazonaws.com', 'delivery.logs.amazonaws.com'] },
            Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
            Resource: this.log.logGroupArn,
          },
        ],
      }),
    });

    // S3 to EventBridge natively (CloudFormation's NotificationConfiguration), not through CDK's
    // bucket-notifications custom resource and its function.
    (props.bucket.node.defaultChild as s3.CfnBucket).notificationConfiguration = {
      eventBridgeConfiguration: { eventBridgeEnabled: true },
    };
    this.verifyRule = new events.Rule(this, 'JwksWritten', {
      description:
        'Behaviour CUSTODY-3: every write or delete of jwks.json runs the rotation job, which fails when it disagrees with the key set',
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created', 'Object Deleted'],
        detail: { bucket: { name: [props.bucket.bucketName] }, object: { key: [props.objectKey] } },
      },
      // Undeliverable events go to the failures queue as the schedule's do; a failed run is retried by
      // Lambda (the verifier is watched there already), and its first failure raised the alarm.
      targets: [new targets.LambdaFunction(props.verifier, props.failures.targetOptions())],
    });
  }
}

/** An EventBridge target writing the matched event to a log group (its resource policy is above). */
function logTarget(group: logs.LogGroup): events.IRuleTarget {
  return {
    bind: () => ({
      arn: Stack.of(group).formatArn({
        service: 'logs',
        resource: 'log-group',
        resourceName: group.logGroupName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    }),
  };
}
