/**
 * The stored items of the main table's records: key, index attributes and the record.
 * Repositories and the first-start seed both write through these
 * (`import * as mainItems from './keys/main-items'`).
 */
import type { Client, Environment, User } from '../../../core/model';
import type { ScopeDefinition } from '../../../core/ports';
import type { TrustedIssuer } from '../../../core/trusted-issuers/model';
import * as keys from './item-keys';
import { byTime } from './key-parts';
import * as partitions from './partitions';

/**
 * `generation`: random, new with every environment, so one created again under a deleted one's
 * id is told apart from it; a grant holds the generation it was made for (behaviour ENV-4).
 */
export const environment = (environment: Environment, generation: string) => ({
  ...keys.environment(environment.id),
  gsi1pk: partitions.environments,
  gsi1sk: environment.id,
  ...environment,
  generation,
});
export const environmentGrant = (userId: string, environmentId: string, grantedAt: string, generation: string | undefined) => ({
  ...keys.environmentGrant(userId, environmentId),
  gsi1pk: partitions.usersOfEnvironment(environmentId),
  gsi1sk: userId,
  userId,
  environmentId,
  grantedAt,
  ...(generation !== undefined ? { generation } : {}),
});
export const scope = (scope: ScopeDefinition) => ({ ...keys.scope(scope.name), gsi1pk: partitions.scopes, gsi1sk: scope.name, ...scope });
export const user = (user: User) => ({
  ...keys.user(user.id),
  gsi1pk: partitions.users,
  gsi1sk: byTime(user.createdAt, user.id),
  ...user,
});
export const email = (email: string, userId: string) => ({ ...keys.email(email), userId });
export const client = (client: Client) => ({
  ...keys.client(client.clientId),
  gsi1pk: partitions.clients(client.registrationType),
  gsi1sk: byTime(client.createdAt, client.clientId),
  ...client,
});
/** A trusted issuer's record, at the key its profile is looked up by, listed newest first. */
export const trustedIssuer = (trusted: TrustedIssuer, revision: string) => ({
  ...(trusted.profile === 'workload' ? keys.workloadIssuer(trusted.issuer) : keys.trustedIssuer(trusted.environmentId, trusted.issuer)),
  gsi1pk: partitions.trustedIssuers,
  gsi1sk: byTime(trusted.createdAt, trusted.trustedIssuerId),
  ...trusted,
  revision,
});
/** The pointer from a trusted issuer's id to its record: what rebuilds the record's key. */
export const trustedIssuerPointer = (trusted: Pick<TrustedIssuer, 'trustedIssuerId' | 'environmentId' | 'issuer' | 'profile'>) => ({
  ...keys.trustedIssuerById(trusted.trustedIssuerId),
  trustedIssuerId: trusted.trustedIssuerId,
  environmentId: trusted.environmentId,
  issuer: trusted.issuer,
  profile: trusted.profile,
});
