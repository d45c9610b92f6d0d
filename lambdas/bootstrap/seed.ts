/**
 * First-start data: a default environment, the DCR environment, the scopes
 * `openid profile email` and `admin`, an admin user (granted both environments) and an
 * admin API client (client_credentials). Written in one transaction, so a failed seed
 * leaves nothing behind and a second seed of the same email fails as a whole.
 * Secrets are only ever stored hashed; the plain values are returned once to the caller.
 */
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PhysicalTableNames } from '../adapters/dynamodb/client';
import { clientCopyItems } from '../adapters/dynamodb/client-copies';
import * as mainItems from '../adapters/dynamodb/keys/main-items';
import { newId, newSecret } from '../core/ids';
import type { Clock, Hasher, RandomSource } from '../core/ports';
import { adminScope } from '../core/scope';

export interface SeedDependencies {
  readonly db: DynamoDBDocumentClient;
  readonly tables: PhysicalTableNames;
  readonly hasher: Hasher;
  readonly random: RandomSource;
  readonly clock: Clock;
}

export interface SeedOptions {
  readonly clientIdPrefix: string;
  readonly adminEmail?: string;
  readonly adminPassword?: string;
  readonly adminClientSecret?: string;
  /**
   * Ids of the two environments; random when omitted (the local server). A deployment
   * fixes them at synth so DCR_ENVIRONMENT_ID can name the seeded environment.
   */
  readonly environmentIds?: { readonly defaultId?: string; readonly dcrId?: string };
}

export interface SeededCredentials {
  readonly environments: { readonly defaultId: string; readonly dcrId: string };
  readonly admin: { readonly userId: string; readonly email: string; readonly password: string };
  readonly adminClient: { readonly clientId: string; readonly clientSecret: string };
}

const scopes = [
  { name: 'openid', description: 'Sign you in with OpenID Connect', discoverable: true },
  { name: 'profile', description: 'Read your name', discoverable: true },
  { name: 'email', description: 'Read your email address', discoverable: true },
  { name: adminScope, description: 'Manage this authorization server', discoverable: false },
];

export async function seed(deps: SeedDependencies, options: SeedOptions): Promise<SeededCredentials> {
  const { random } = deps;
  const createdAt = new Date(deps.clock.now()).toISOString();
  const defaultId = options.environmentIds?.defaultId ?? newId('env_', random);
  const dcrId = options.environmentIds?.dcrId ?? newId('env_', random);
  const userId = newId('usr_', random);
  const email = (options.adminEmail ?? 'admin@example.com').trim().toLowerCase();
  const password = options.adminPassword ?? newSecret(random);
  const clientId = `${options.clientIdPrefix}${newId('', random)}`;
  const clientSecret = options.adminClientSecret ?? newSecret(random);
  const [passwordHash, secretHash] = await Promise.all([deps.hasher.hash(password), deps.hasher.hash(clientSecret)]);

  const put = (Item: Record<string, unknown>) => ({
    Put: { TableName: deps.tables.main, Item, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  const generations = new Map([defaultId, dcrId].map((id) => [id, newId('gen_', random)]));
  const environment = (id: string, name: string, dcr: boolean) =>
    put(mainItems.environment({ id, name, dcr, createdAt }, generations.get(id)!));
  const grant = (environmentId: string) =>
    put(mainItems.environmentGrant(userId, environmentId, createdAt, generations.get(environmentId)));

  await deps.db.send(
    new TransactWriteCommand({
      TransactItems: [
        environment(defaultId, 'Default', false),
        environment(dcrId, 'Dynamic clients', true),
        ...scopes.map((scope) => put(mainItems.scope(scope))),
        put(
          mainItems.user({
            id: userId,
            email,
            name: 'Administrator',
            passwordHash,
            admin: true,
            test: false,
            createdAt,
          }),
        ),
        // Uniqueness of email: a second user with this address fails the transaction.
        put(mainItems.email(email, userId)),
        grant(defaultId),
        grant(dcrId),
        // The admin client and its read-sharded copies (client-copies.ts).
        ...clientCopyItems(
          mainItems.client({
            clientId,
            name: 'Admin API client',
            type: 'confidential',
            secretHash,
            environmentId: defaultId,
            redirectUris: [],
            grantTypes: ['client_credentials'],
            scopes: [adminScope],
            registrationType: 'static',
            admin: true,
            test: false,
            createdAt,
          }),
          clientId,
        ).map(put),
      ],
    }),
  );
  return {
    environments: { defaultId, dcrId },
    admin: { userId, email, password },
    adminClient: { clientId, clientSecret },
  };
}
