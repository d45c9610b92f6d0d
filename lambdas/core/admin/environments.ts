/** Admin operations on environments and their grants to users (`users_environments`, behaviour ADMIN-9). */
import { ConflictError, ConflictRequestError } from '../errors';
import { newId } from '../ids';
import type { Environment } from '../model';
import { type AdminActor, auditEntryOf } from './audit';
import { found, noSuch } from './not-found';
import { getUser } from './users';
import { isoNow, type AdminDependencies, type EnvironmentGrant, type Page } from './ports';

export async function getEnvironment(deps: Pick<AdminDependencies, 'environments'>, id: string): Promise<Environment> {
  return found(await deps.environments.get(id), 'environment', id);
}

export function listEnvironments(
  deps: Pick<AdminDependencies, 'environments'>,
  limit: number,
  cursor?: string,
): Promise<Page<Environment>> {
  return deps.environments.list(limit, cursor);
}

/**
 * Every environment, for a page that names them or offers them in a select (behaviour DASH-11):
 * the list is read page by page, up to `everyEnvironmentCap`. Environments are a deployment's
 * few tenants or stages, not its users; past the cap a select would be no way to pick one anyway.
 */
export const everyEnvironmentCap = 1000;

export async function everyEnvironment(deps: Pick<AdminDependencies, 'environments'>): Promise<Environment[]> {
  const all: Environment[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.environments.list(Math.min(100, everyEnvironmentCap - all.length), cursor);
    all.push(...page.items);
    cursor = page.next;
  } while (cursor && all.length < everyEnvironmentCap);
  return all;
}

/** `id` may be chosen (a stable name for DCR_ENVIRONMENT_ID across deploys), else it is generated. */
export async function createEnvironment(
  deps: Pick<AdminDependencies, 'environments' | 'random' | 'clock' | 'dcrEnvironmentId'>,
  actor: AdminActor,
  input: { id?: string; name: string },
): Promise<Environment> {
  const id = input.id ?? newId('env_', deps.random);
  const environment: Environment = { id, name: input.name, dcr: id === deps.dcrEnvironmentId, createdAt: isoNow(deps.clock) };
  try {
    await deps.environments.create(environment, auditEntryOf(deps, actor, { type: 'environment.create', environmentId: id }));
  } catch (error) {
    if (error instanceof ConflictError) throw new ConflictRequestError(`An environment with the id "${id}" already exists.`);
    throw error;
  }
  return environment;
}

/**
 * Refused while it is the DCR environment or any client is placed in it: such clients
 * would authorize nobody. Grants go before the environment, so a retry after a failure
 * still finds it. A grant the sweep misses (written a moment before, not yet in the index it
 * reads) is of this environment's generation, which no later environment with the same id
 * has: it gives nothing (behaviour ENV-4).
 */
export async function deleteEnvironment(
  deps: Pick<AdminDependencies, 'environments' | 'clients' | 'trustedIssuers' | 'clock' | 'dcrEnvironmentId'>,
  actor: AdminActor,
  id: string,
): Promise<void> {
  await getEnvironment(deps, id);
  if (id === deps.dcrEnvironmentId) {
    throw new ConflictRequestError(
      `Environment "${id}" is DCR_ENVIRONMENT_ID, where new dynamic clients are placed; change that setting first.`,
    );
  }
  if (await deps.clients.anyInEnvironment(id)) {
    throw new ConflictRequestError(`Environment "${id}" still has clients; delete them first.`);
  }
  // Behaviour TRUST-8: a workload issuer names no client, so it would go on issuing for an environment that is gone.
  if (await deps.trustedIssuers.anyInEnvironment(id)) {
    throw new ConflictRequestError(`Environment "${id}" still has trusted issuers; delete them first.`);
  }
  await deps.environments.revokeAllGrantsTo(id);
  // Behaviour LOG-9: the `environment.delete` entry in the deletion's own transaction.
  await deps.environments.delete(id, auditEntryOf(deps, actor, { type: 'environment.delete', environmentId: id }));
}

export interface UserEnvironment {
  readonly environment: Environment;
  readonly grantedAt: string;
}

export async function listUserEnvironments(
  deps: Pick<AdminDependencies, 'users' | 'environments'>,
  userId: string,
): Promise<UserEnvironment[]> {
  await getUser(deps, userId);
  const grants = await deps.environments.grantsOf(userId);
  const found = await Promise.all(
    grants.map(async (grant) => ({ environment: await deps.environments.get(grant.environmentId), grantedAt: grant.grantedAt })),
  );
  return found.filter((g): g is UserEnvironment => g.environment !== undefined);
}

/** A user and an environment: what a grant or revocation names. */
export interface UserEnvironmentInput {
  readonly userId: string;
  readonly environmentId: string;
}

/** Idempotent: granting again keeps the original grant time. */
export async function grantEnvironment(
  deps: Pick<AdminDependencies, 'users' | 'environments' | 'clock'>,
  actor: AdminActor,
  { userId, environmentId }: UserEnvironmentInput,
): Promise<EnvironmentGrant> {
  await Promise.all([getUser(deps, userId), getEnvironment(deps, environmentId)]);
  const existing = (await deps.environments.grantsOf(userId)).find((g) => g.environmentId === environmentId);
  if (existing) return existing;
  const grantedAt = isoNow(deps.clock);
  // Refused when the environment was deleted since it was read (behaviour ENV-4); audited in the grant's transaction (LOG-9).
  const audit = auditEntryOf(deps, actor, { type: 'user.environment_grant', userId, environmentId });
  if (!(await deps.environments.grant(userId, environmentId, grantedAt, audit))) throw noSuch('environment', environmentId);
  return { userId, environmentId, grantedAt };
}

/**
 * Idempotent. Tokens already issued stay valid until they expire, but the next refresh
 * rotation re-checks the grant and fails (behaviour ENV-2), as does the next authorization.
 */
export async function revokeEnvironment(
  deps: Pick<AdminDependencies, 'users' | 'environments' | 'clock'>,
  actor: AdminActor,
  { userId, environmentId }: UserEnvironmentInput,
): Promise<void> {
  await Promise.all([getUser(deps, userId), getEnvironment(deps, environmentId)]);
  await deps.environments.revoke(
    userId,
    environmentId,
    auditEntryOf(deps, actor, { type: 'user.environment_revoke', userId, environmentId }),
  );
}
