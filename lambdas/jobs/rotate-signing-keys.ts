/**
 * Scheduled (lib/key-rotation.ts, daily): advances signing-key rotation one run at a time.
 * The decisions are lambdas/adapters/signing/rotation.ts; this file reads the key set
 * and the published jwks.json, writes the secret, republishes jwks.json when its keys
 * changed and invalidates `/jwks.json` on CloudFront.
 *
 * Write order: the secret first, then jwks.json. If the upload fails after the secret
 * was written, the next run finds the new key missing from jwks.json, republishes it and
 * restarts its publication clock, so a key never signs before it was really published.
 * A key in jwks.json that is not the set's key under the same kid (behaviour CUSTODY-5) is
 * repaired the same way, and then the run fails: something other than this job wrote
 * jwks.json, and the failure raises the KeyRotationErrors alarm.
 * Invoked by S3's event for a write or delete of jwks.json (behaviour CUSTODY-3, lib/key-change-watch.ts)
 * rather than by the schedule, any difference at all from the key set fails the run once repaired: this
 * job and the deploy-time function write jwks.json only after the secret, so their own writes agree.
 * Logs name kids and steps only, never key material. Every run that completes counts one
 * KeyRotationSucceeded, the heartbeat of the KeyRotationMissed alarm (behaviour OPS-3): a job
 * that stops running is heard of, not only one that throws.
 */
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { withinDeadline } from '../adapters/aws/invocation-deadline';
import { awsClient, backgroundCallBounds } from '../adapters/aws/sdk-clients';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { DynamoSigningKeyTimes } from '../adapters/dynamodb/signing-key-times';
import { keyTimesRecordOf } from '../adapters/signing/key-times-record';
import { generateSigningKey } from '../adapters/signing/key-set';
import { publishJwks } from '../adapters/signing/publish-jwks';
import {
  addNextKey,
  emergencyRotation,
  needsPublishing,
  parseRotatingKeySet,
  planRotation,
  rotationPolicy,
  type RotationStep,
  verifyPublishedKeys,
} from '../adapters/signing/rotation';
import { parseSettings } from '../config/settings';
import { createEmfMetrics } from '../adapters/emf-metrics';
import { createLogger } from '../adapters/json-logger';
import type { SigningKeyTimesRecorder } from '../core/admin/signing-key';
import { metricNames } from '../core/metrics';
import type { Metrics } from '../core/ports';
import { awsClientSettings } from '../wiring/aws';

/** Variables set by lib/key-rotation.ts. */
const log = createLogger('info', { service: 'authorization-server', function: 'rotate-signing-keys' });

export interface RotationEnvironment {
  readonly SIGNING_KEY_SECRET_ARN: string;
  readonly JWKS_BUCKET: string;
  readonly JWKS_OBJECT_KEY: string;
  readonly JWKS_DISTRIBUTION_ID: string;
  /** Cache-Control max-age of jwks.json and the CloudFront TTL, in seconds. */
  readonly JWKS_MAX_AGE_SECONDS: string;
  readonly KEY_ROTATION_DAYS: string;
  /** SIGNING_ALG of new keys. */
  readonly SIGNING_ALG: string;
  /** The main table, where each run records the set's kids and times for the dashboard (behaviour DASH-7). */
  readonly MAIN_TABLE_NAME: string;
}

export interface RotationResult {
  readonly currentKid: string;
  readonly kids: readonly string[];
  readonly steps: readonly RotationStep['kind'][];
  readonly published: boolean;
  /** Kids under which jwks.json published another key before this run republished it (behaviour CUSTODY-5). */
  readonly swapped: readonly string[];
}

interface Dependencies {
  readonly secrets: Pick<SecretsManagerClient, 'send'>;
  readonly s3: Pick<S3Client, 'send'>;
  readonly cloudfront: Pick<CloudFrontClient, 'send'>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  readonly metrics: Metrics;
  readonly keyTimes: SigningKeyTimesRecorder;
}

/** The S3 event (through EventBridge) for a write or delete of jwks.json; the schedule's event is anything else. */
function isObjectEvent(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { source?: unknown }).source === 'aws.s3';
}

/**
 * `aws lambda invoke --payload '{"emergencyRotationOf":"<current kid>"}'` (docs/deployment.md,
 * "Emergency signing-key rotation"): the kid must be named, so no other event can trigger it.
 */
function emergencyKidOf(event: unknown): string | undefined {
  const kid = typeof event === 'object' && event !== null ? (event as { emergencyRotationOf?: unknown }).emergencyRotationOf : undefined;
  return typeof kid === 'string' && kid.length > 0 ? kid : undefined;
}

export function createHandler({ secrets, s3, cloudfront, env, now: clock, metrics, keyTimes }: Dependencies) {
  return async (event?: unknown): Promise<RotationResult> => {
    const e = env as unknown as RotationEnvironment;
    const now = clock();
    const alg = parseSettings({ SIGNING_ALG: e.SIGNING_ALG }, ['SIGNING_ALG']).SIGNING_ALG;
    const maxAgeSeconds = Number.parseInt(e.JWKS_MAX_AGE_SECONDS, 10);
    const policy = rotationPolicy(Number(e.KEY_ROTATION_DAYS), maxAgeSeconds * 1000);

    const secret = await secrets.send(new GetSecretValueCommand({ SecretId: e.SIGNING_KEY_SECRET_ARN }));
    const stored = parseRotatingKeySet(secret.SecretString);
    // The deploy-time custom resource creates the set; without it there is nothing to rotate.
    if (!stored) throw new Error('the signing key secret holds no valid key set');
    const check = await verifyPublishedKeys(stored, await readPublishedKeys(s3, e.JWKS_BUCKET, e.JWKS_OBJECT_KEY));
    // A swapped kid is not among check.kids: it is republished and, if pending, waits a full lead again.
    const publishedKids = check.kids;
    // Behaviour CUSTODY-3: compared with the key set as stored, before this run changes anything.
    const disagreed = check.swapped.length > 0 || check.foreign > 0 || needsPublishing(stored, publishedKids);

    const exposedKid = emergencyKidOf(event);
    const emergency = exposedKid ? emergencyRotation(stored, { exposedKid, newKey: await generateSigningKey(alg), now }) : undefined;
    if (exposedKid && !emergency) log.warn('emergency rotation not done: the kid named is not the current key', { exposedKid });
    const plan = emergency
      ? { set: emergency.set, steps: [emergency.step], prepareNext: false }
      : planRotation(stored, { now, publishedKids, policy });
    const set = plan.prepareNext ? addNextKey(plan.set, await generateSigningKey(alg), now) : plan.set;

    if (plan.steps.length > 0 || set !== plan.set) {
      await secrets.send(new PutSecretValueCommand({ SecretId: e.SIGNING_KEY_SECRET_ARN, SecretString: JSON.stringify(set) }));
    }
    const published = needsPublishing(set, publishedKids) || check.foreign > 0 || check.swapped.length > 0;
    if (published) {
      await publishJwks(s3, { bucket: e.JWKS_BUCKET, key: e.JWKS_OBJECT_KEY, maxAgeSeconds }, set);
      // Not relied on for safety (the publication lead assumes none), but it makes
      // CloudFront serve the new set at once instead of after its TTL.
      await cloudfront.send(
        new CreateInvalidationCommand({
          DistributionId: e.JWKS_DISTRIBUTION_ID,
          InvalidationBatch: { CallerReference: `jwks-${now}`, Paths: { Quantity: 1, Items: [`/${e.JWKS_OBJECT_KEY}`] } },
        }),
      );
    }
    const result: RotationResult = {
      currentKid: set.currentKid,
      kids: set.keys.map((key) => key.kid!),
      steps: plan.steps.map((step) => step.kind),
      published,
      swapped: check.swapped,
    };
    if (check.swapped.length > 0) {
      log.error('jwks.json published a different key under a kid of the key set; republished from the key set', { ...result });
      throw new Error(
        `jwks.json published a different key under kid ${check.swapped.join(', ')} than the signing key set holds; ` +
          'republished from the key set. Something other than this job wrote jwks.json: find out what (CloudTrail, the KeyMaterialChanged alarm).',
      );
    }
    if (isObjectEvent(event) && disagreed) {
      log.error('jwks.json was changed to publish other keys than the signing key set; republished from the key set', { ...result });
      throw new Error(
        'jwks.json was written or deleted and then published other keys than the signing key set holds; republished from the key set. ' +
          'Something other than this job and the deploy-time function wrote it: find out what (CloudTrail, the KeyMaterialChanged alarm).',
      );
    }
    log.info('signing key rotation', { ...result });
    try {
      await keyTimes.record(keyTimesRecordOf(set, policy, Number(e.KEY_ROTATION_DAYS), now));
    } catch (error) {
      // Only the dashboard's overview reads the record (behaviour DASH-7): the rotation itself is done and stays counted.
      log.warn('the key times for the dashboard were not recorded', { error: (error as Error).name });
    }
    metrics.count(metricNames.keyRotationSucceeded);
    return result;
  };
}

/** The entries of the published jwks.json; none when it is missing or unreadable, so everything is republished. */
async function readPublishedKeys(s3: Dependencies['s3'], bucket: string, key: string): Promise<unknown[]> {
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const document = JSON.parse((await object.Body?.transformToString()) ?? '{}') as { keys?: unknown };
    return Array.isArray(document?.keys) ? document.keys : [];
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey' || error instanceof SyntaxError) return [];
    throw error;
  }
}

const aws = awsClientSettings(process.env);
export const handler = withinDeadline(
  createHandler({
    secrets: awsClient((config) => new SecretsManagerClient(config), backgroundCallBounds, aws),
    s3: awsClient((config) => new S3Client(config), backgroundCallBounds, aws),
    cloudfront: awsClient((config) => new CloudFrontClient(config), backgroundCallBounds, aws),
    env: process.env,
    now: Date.now,
    keyTimes: new DynamoSigningKeyTimes(createDocumentClient(aws), process.env.MAIN_TABLE_NAME ?? ''),
    // lib/key-rotation.ts names the namespace and this deployment's service dimension.
    metrics: createEmfMetrics({
      namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || 'Tollgate',
      service: process.env.POWERTOOLS_SERVICE_NAME || 'authorization-server',
      log,
    }),
  }),
);
