/**
 * CloudFormation custom resource (lib/signing-key.ts): on Create and Update, makes sure
 * the secret holds a signing key set, generating one if it holds anything else (the
 * placeholder Secrets Manager creates), then publishes its public keys as `jwks.json`.
 *
 * An existing key set is never replaced: replacing it would invalidate every issued
 * token. Changing SIGNING_ALG after the first deploy therefore changes nothing here;
 * key rotation is its own procedure. Delete does nothing: the secret and the bucket
 * are retained. Neither logs nor the response carry key material; only the kid.
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

/** Resource properties; CloudFormation passes every value as a string. */
const log = createLogger('info', { service: 'authorization-server', function: 'signing-key' });

export interface SigningKeyProperties {
  readonly SecretId: string;
  readonly BucketName: string;
  readonly ObjectKey: string;
  /** SIGNING_ALG: algorithm of a newly generated key. */
  readonly Alg: string;
  readonly MaxAgeSeconds: string;
}

export interface SigningKeyResult {
  readonly PhysicalResourceId: string;
  readonly Data?: { readonly CurrentKid: string };
}

interface Clients {
  readonly secrets: Pick<SecretsManagerClient, 'send'>;
  readonly s3: Pick<S3Client, 'send'>;
}

export function createHandler({ secrets, s3 }: Clients) {
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
