/**
 * CloudFormation custom resource (lib/signing-key.ts): on Create and Update, makes sure
 * the secret holds a signing key set, generating one if it holds anything else (the
 * placeholder Secrets Manager creates), then publishes its public keys as `jwks.json`.
 *
 * An existing key set is never replaced: replacing it would invalidate every issued
 * token. Changing SIGNING_ALG after the first deploy therefore changes nothing here;
 * key rotation is its own procedure. Delete does nothing: the secret and the bucket
 * are retained. Neither logs nor the response carry key material; only the kid.
 *
 * A Create or Update counts one KeyRotationSucceeded, as a completed rotation run does: the key
 * set is current as of the deploy, so the KeyRotationMissed heartbeat alarm (behaviour OPS-3),
 * created in the same deploy, starts from a heartbeat instead of 36 silent hours. The metric's
 * namespace and service come as resource properties, so the deploy that adds them updates this
 * resource and counts one for a deployment upgraded to the alarm too.
 */
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { S3Client } from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { withinDeadline } from '../adapters/aws/invocation-deadline';
import { awsClient, backgroundCallBounds } from '../adapters/aws/sdk-clients';
import { createLogger } from '../adapters/json-logger';
import { awsClientSettings } from '../wiring/aws';
import { generateKeySet, parseKeySet } from '../adapters/signing/key-set';
import { publishJwks } from '../adapters/signing/publish-jwks';
import { parseSettings } from '../config/settings';
import { createEmfMetrics } from '../adapters/emf-metrics';
import { metricNames } from '../core/metrics';
import type { Metrics } from '../core/ports';

/** Resource properties; CloudFormation passes every value as a string. */
const log = createLogger('info', { service: 'authorization-server', function: 'signing-key' });

export interface SigningKeyProperties {
  readonly SecretId: string;
  readonly BucketName: string;
  readonly ObjectKey: string;
  /** SIGNING_ALG: algorithm of a newly generated key. */
  readonly Alg: string;
  readonly MaxAgeSeconds: string;
  /** Where the rotation job's heartbeat is counted (the construct's metrics namespace and service dimension). */
  readonly MetricsNamespace: string;
  readonly MetricsService: string;
}

export interface SigningKeyResult {
  readonly PhysicalResourceId: string;
  readonly Data?: { readonly CurrentKid: string };
}

interface Clients {
  readonly secrets: Pick<SecretsManagerClient, 'send'>;
  readonly s3: Pick<S3Client, 'send'>;
  /** The heartbeat's publisher for a namespace and service. */
  readonly metricsFor?: (namespace: string, service: string) => Metrics;
}

const emfMetricsFor = (namespace: string, service: string): Metrics => createEmfMetrics({ namespace, service, log });

export function createHandler({ secrets, s3, metricsFor = emfMetricsFor }: Clients) {
  return async (event: CloudFormationCustomResourceEvent): Promise<SigningKeyResult> => {
    const props = event.ResourceProperties as unknown as SigningKeyProperties;
    // The secret is the resource: a stable id means an Update never looks like a replacement.
    const physicalResourceId = event.RequestType === 'Create' ? props.SecretId : event.PhysicalResourceId;
    if (event.RequestType === 'Delete') return { PhysicalResourceId: physicalResourceId };

    const current = await secrets.send(new GetSecretValueCommand({ SecretId: props.SecretId }));
    let set = parseKeySet(current.SecretString);
    const generated = set === undefined;
    if (set === undefined) {
      set = await generateKeySet(parseSettings({ SIGNING_ALG: props.Alg }, ['SIGNING_ALG']).SIGNING_ALG);
      await secrets.send(new PutSecretValueCommand({ SecretId: props.SecretId, SecretString: JSON.stringify(set) }));
    }
    const maxAgeSeconds = Number.parseInt(props.MaxAgeSeconds, 10) || 300;
    await publishJwks(s3, { bucket: props.BucketName, key: props.ObjectKey, maxAgeSeconds }, set);
    log.info('jwks published', { requestType: event.RequestType, generated, kid: set.currentKid });
    if (props.MetricsNamespace && props.MetricsService) {
      metricsFor(props.MetricsNamespace, props.MetricsService).count(metricNames.keyRotationSucceeded);
    }
    return { PhysicalResourceId: physicalResourceId, Data: { CurrentKid: set.currentKid } };
  };
}

const aws = awsClientSettings(process.env);
export const handler = withinDeadline(
  createHandler({
    secrets: awsClient((config) => new SecretsManagerClient(config), backgroundCallBounds, aws),
    s3: awsClient((config) => new S3Client(config), backgroundCallBounds, aws),
  }),
);
