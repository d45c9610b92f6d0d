/**
 * CloudFormation custom resource (lib/admin-bootstrap.ts): on Create, seeds the first
 * admin user, the admin API client, the two environments and the scopes with the same
 * seed the local server runs (lambdas/bootstrap/seed.ts), hashing with the production
 * Argon2id policy, and stores the generated credentials in a Secrets Manager secret.
 *
 * Seeds once: when the secret already holds credentials, or says they were handed over and
 * removed (behaviour CUSTODY-4), or the data already exists (the seed is one conditional
 * transaction), nothing is written. Update and Delete do
 * nothing; the tables and the secret are retained. Passwords and secrets are random
 * (256 bits each); they go only to the secret, never to the response, outputs or logs.
 */
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { createLogger } from '../adapters/json-logger';
import { createHasher } from '../adapters/argon2-hasher';
import { withinDeadline } from '../adapters/aws/invocation-deadline';
import { awsClient, backgroundCallBounds } from '../adapters/aws/sdk-clients';
import { createDocumentClient } from '../adapters/dynamodb/client';
import { isConditionFailure } from '../adapters/dynamodb/items';
import { cryptoRandom, systemClock } from '../adapters/system';
import { seed, type SeedDependencies } from '../bootstrap/seed';
import { runInRequest } from '../http/request-context';
import { adminSeed } from '../routes';
import { parseSettings } from '../config/settings';
import { awsClientSettings } from '../wiring/aws';

/** Resource properties; CloudFormation passes every value as a string. */
export interface AdminBootstrapProperties {
  readonly SecretId: string;
  readonly MainTable: string;
  readonly EphemeralTable: string;
  readonly ActivityTable: string;
  readonly AdminEmail: string;
  readonly DefaultEnvironmentId: string;
  readonly DcrEnvironmentId: string;
  readonly ClientIdPrefix: string;
  readonly HashMethod: string;
  /** BASE_URL, recorded beside the credentials for whoever reads them. */
  readonly Issuer: string;
}

/** What the secret holds after the seed (JSON). */
export interface AdminCredentials {
  readonly issuer: string;
  readonly admin: { readonly userId: string; readonly email: string; readonly password: string };
  readonly adminClient: { readonly clientId: string; readonly clientSecret: string };
  readonly environments: { readonly defaultId: string; readonly dcrId: string };
  readonly createdAt: string;
}

export interface AdminBootstrapResult {
  readonly PhysicalResourceId: string;
}

interface Dependencies {
  readonly secrets: Pick<SecretsManagerClient, 'send'>;
  readonly db: DynamoDBDocumentClient;
  readonly random: SeedDependencies['random'];
  readonly clock: SeedDependencies['clock'];
}

const log = createLogger('info', { service: 'authorization-server', function: 'admin-bootstrap' });

export function createHandler({ secrets, db, random, clock }: Dependencies) {
  return async (event: CloudFormationCustomResourceEvent): Promise<AdminBootstrapResult> => {
    const props = event.ResourceProperties as unknown as AdminBootstrapProperties;
    const physicalResourceId = event.RequestType === 'Create' ? props.SecretId : event.PhysicalResourceId;
    if (event.RequestType !== 'Create') return { PhysicalResourceId: physicalResourceId };

    const current = await secrets.send(new GetSecretValueCommand({ SecretId: props.SecretId }));
    if (holdsCredentials(current.SecretString)) {
      log.info('admin bootstrap skipped: the secret already holds credentials');
      return { PhysicalResourceId: physicalResourceId };
    }
    // Behaviour CUSTODY-4: once handed over, a replaced resource or a restore into new tables must
    // not bring back an admin with credentials nobody asked for.
    if (handedOver(current.SecretString)) {
      log.info('admin bootstrap skipped: the credentials were handed over and removed');
      return { PhysicalResourceId: physicalResourceId };
    }
    const { HASH_METHOD, CLIENT_ID_PREFIX } = parseSettings({ HASH_METHOD: props.HashMethod, CLIENT_ID_PREFIX: props.ClientIdPrefix }, [
      'HASH_METHOD',
      'CLIENT_ID_PREFIX',
    ]);
    let seeded: Awaited<ReturnType<typeof seed>>;
    try {
      // Labelled with the declaration it is granted by (lambdas/routes.ts adminSeed), so the tests
      // check each request the seed sends against it (behaviour IAM-3).
      seeded = await runInRequest({ job: adminSeed.name }, () =>
        seed(
          {
            db,
            tables: { main: props.MainTable, ephemeral: props.EphemeralTable, activity: props.ActivityTable },
            hasher: createHasher(HASH_METHOD),
            random,
            clock,
          },
          {
            clientIdPrefix: CLIENT_ID_PREFIX,
            adminEmail: props.AdminEmail,
            environmentIds: { defaultId: props.DefaultEnvironmentId, dcrId: props.DcrEnvironmentId },
          },
        ),
      );
    } catch (error) {
      // The seed's conditions failed: the data exists (a replaced resource over the same
      // tables). Not an error for the deploy; the existing admin keeps its credentials.
      if (isConditionFailure(error)) {
        log.warn('admin bootstrap skipped: the seed data already exists in the tables');
        return { PhysicalResourceId: physicalResourceId };
      }
      throw error;
    }
    const credentials: AdminCredentials = {
      issuer: props.Issuer,
      ...seeded,
      createdAt: new Date(clock.now()).toISOString(),
    };
    await secrets.send(new PutSecretValueCommand({ SecretId: props.SecretId, SecretString: JSON.stringify(credentials) }));
    log.info('admin bootstrap seeded', { userId: seeded.admin.userId, clientId: seeded.adminClient.clientId });
    return { PhysicalResourceId: physicalResourceId };
  };
}

/** What the secret holds once its credentials were revoked and removed (docs/deployment.md). */
export interface HandedOverMarker {
  /** When (ISO 8601), as the operator wrote it. */
  readonly handedOver: string;
}

function handedOver(text: string | undefined): boolean {
  try {
    const value = JSON.parse(text ?? '') as Partial<HandedOverMarker>;
    return typeof value?.handedOver === 'string' && value.handedOver.length > 0;
  } catch {
    return false;
  }
}

function holdsCredentials(text: string | undefined): boolean {
  try {
    const value = JSON.parse(text ?? '') as Partial<AdminCredentials>;
    return typeof value?.adminClient?.clientId === 'string';
  } catch {
    return false;
  }
}

const aws = awsClientSettings(process.env);
export const handler = withinDeadline(
  createHandler({
    secrets: awsClient((config) => new SecretsManagerClient(config), backgroundCallBounds, aws),
    db: createDocumentClient(aws),
    random: cryptoRandom,
    clock: systemClock,
  }),
);
