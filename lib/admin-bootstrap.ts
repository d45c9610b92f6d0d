/**
 * The first admin, created inside the deploy: a custom resource that seeds the admin
 * user, the admin API client, the default and DCR environments and the base scopes once
 * (lambdas/custom-resources/admin-bootstrap.ts), and a retained Secrets Manager secret
 * that receives their generated credentials. The stack outputs only where the secret is.
 *
 * Environment ids are fixed at synth (not random as in the local seed), so the stack can
 * point DCR_ENVIRONMENT_ID at the seeded DCR environment in the same deploy.
 */
import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { AdminBootstrapProperties } from '../lambdas/custom-resources/admin-bootstrap';
import { adminSeed, type TableName } from '../lambdas/routes';
import { serviceFunction } from './functions';
import { grantSecretPut } from './narrow-grants';
import { storageStatements } from './storage-grants';

export interface AdminBootstrapProps {
  readonly tables: Readonly<Record<TableName, dynamodb.ITableV2>>;
  /** Sign-in email of the first admin user. */
  readonly adminEmail: string;
  readonly defaultEnvironmentId: string;
  readonly dcrEnvironmentId: string;
  readonly clientIdPrefix: string;
  /** HASH_METHOD: the hashes are made with the policy the service verifies with. */
  readonly hashMethod: string;
  readonly issuer: string;
  readonly logRetention: logs.RetentionDays;
}

export class AdminBootstrap extends Construct {
  /** JSON `{ issuer, admin: { email, password, … }, adminClient: { clientId, clientSecret }, environments }`. */
  readonly secret: secretsmanager.Secret;
  /** The deploy-time function that seeds and writes the credentials (behaviour CUSTODY-1 names its role). */
  readonly handler: NodejsFunction;

  constructor(scope: Construct, id: string, props: AdminBootstrapProps) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Credentials', {
      description: 'First admin user and admin API client of the authorization server (written once by the deploy)',
      // The only copy of the generated credentials: a stack deletion must not take it.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const onEvent = (this.handler = serviceFunction(this, 'Handler', {
      entry: 'lambdas/custom-resources/admin-bootstrap.ts',
      description: 'Seeds the first admin once and stores the credentials in Secrets Manager',
      // Argon2id (19 MiB, t=2) twice: CPU scales with memory.
      memorySize: 1024,
      timeout: Duration.minutes(2),
      logRetention: props.logRetention,
      hashes: true,
    }));
    this.secret.grantRead(onEvent);
    grantSecretPut(this.secret, onEvent);
    // The seed's one transaction of puts (lambdas/bootstrap/seed.ts; behaviour IAM-1).
    for (const statement of storageStatements(adminSeed.storage, props.tables)) {
      onEvent.addToRolePolicy(statement);
    }

    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: onEvent,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: props.logRetention }),
    });
    const properties: AdminBootstrapProperties = {
      SecretId: this.secret.secretArn,
      MainTable: props.tables.main.tableName,
      EphemeralTable: props.tables.ephemeral.tableName,
      ActivityTable: props.tables.activity.tableName,
      AdminEmail: props.adminEmail,
      DefaultEnvironmentId: props.defaultEnvironmentId,
      DcrEnvironmentId: props.dcrEnvironmentId,
      ClientIdPrefix: props.clientIdPrefix,
      HashMethod: props.hashMethod,
      Issuer: props.issuer,
    };
    new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::AdminBootstrap',
      properties,
    });
  }
}
