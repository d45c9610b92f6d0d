/**
 * The private signing key set in Secrets Manager, created on the first deploy by a
 * custom resource that also publishes the public half as `jwks.json`, so a fresh
 * stack signs and serves a valid JWKS with no manual step.
 */
import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { SigningKeyProperties } from '../lambdas/custom-resources/signing-key';
import { serviceFunction } from './functions';
import type { ServiceMetricsSource } from './service-metrics';
import { grantObjects, grantSecretPut } from './narrow-grants';

export interface SigningKeyProps {
  /** Bucket `jwks.json` is written to. */
  readonly bucket: s3.IBucket;
  readonly objectKey: string;
  /** Algorithm of the key generated on first deploy (SIGNING_ALG). */
  readonly alg: string;
  /** Cache-Control max-age of `jwks.json`. */
  readonly cacheTtl: Duration;
  readonly logRetention: logs.RetentionDays;
  /** Where the deploy counts the key-rotation heartbeat (behaviour OPS-3). */
  readonly serviceMetrics: ServiceMetricsSource;
}

export class SigningKey extends Construct {
  readonly secret: secretsmanager.Secret;
  /** The deploy-time function that creates the key set and publishes jwks.json (behaviour CUSTODY-1 names its role). */
  readonly handler: NodejsFunction;
  /** The key set's creation and check at deploy; it also counts the first rotation heartbeat. */
  readonly resource: CustomResource;

  constructor(scope: Construct, id: string, props: SigningKeyProps) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Private JWT signing key set of the authorization server (generated on first deploy)',
      // Deleting it would invalidate every issued token and the published JWKS.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const onEvent = (this.handler = serviceFunction(this, 'Handler', {
      entry: 'lambdas/custom-resources/signing-key.ts',
      description: 'Creates the signing key set once and publishes jwks.json',
      memorySize: 512,
      timeout: Duration.minutes(1),
      logRetention: props.logRetention,
    }));
    this.secret.grantRead(onEvent);
    grantSecretPut(this.secret, onEvent);
    grantObjects(props.bucket, onEvent, ['s3:PutObject'], props.objectKey);

    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: onEvent,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: props.logRetention }),
    });
    const properties: SigningKeyProperties = {
      SecretId: this.secret.secretArn,
      BucketName: props.bucket.bucketName,
      ObjectKey: props.objectKey,
      Alg: props.alg,
      MaxAgeSeconds: String(props.cacheTtl.toSeconds()),
      MetricsNamespace: props.serviceMetrics.namespace,
      MetricsService: props.serviceMetrics.service,
    };
    this.resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::SigningKeySet',
      properties,
    });
  }
}
