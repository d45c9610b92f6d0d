/**
 * What depends on a thing an admin is about to delete (behaviour DASH-16), read with the same
 * checks the deletion makes, so a confirmation page refuses exactly where the deletion would.
 */
import type { AdminDependencies, ScopeHolders } from './ports';

/** How many of the dependents a page names; the count says how many there are. */
export const namedDependents = 10;

export interface EnvironmentDependents {
  /** DCR_ENVIRONMENT_ID: self-registration places new clients here. */
  readonly selfRegistration: boolean;
  readonly clients: ScopeHolders;
  readonly trustedIssuers: boolean;
}

export async function environmentDependents(
  deps: Pick<AdminDependencies, 'clients' | 'trustedIssuers' | 'dcrEnvironmentId'>,
  environmentId: string,
): Promise<EnvironmentDependents> {
  const [clients, trustedIssuers] = await Promise.all([
    deps.clients.inEnvironment(environmentId, namedDependents),
    deps.trustedIssuers.anyInEnvironment(environmentId),
  ]);
  return { selfRegistration: environmentId === deps.dcrEnvironmentId, clients, trustedIssuers };
}

/** Behaviour ADMIN-10, TRUST-8: deleteEnvironment refuses in exactly these cases. */
export const environmentDeletionBlocked = (dependents: EnvironmentDependents): boolean =>
  dependents.selfRegistration || dependents.clients.count > 0 || dependents.trustedIssuers;

export interface ScopeDependents {
  readonly clients: ScopeHolders;
  /** Trusted issuers whose workload rules give the scope. */
  readonly trustedIssuers: ScopeHolders;
}

export async function scopeDependents(deps: Pick<AdminDependencies, 'clients' | 'trustedIssuers'>, name: string): Promise<ScopeDependents> {
  const [clients, trustedIssuers] = await Promise.all([
    deps.clients.firstHoldersOfScope(name, namedDependents),
    deps.trustedIssuers.holdersOfScope(name, namedDependents),
  ]);
  return { clients, trustedIssuers };
}

/**
 * Behaviour ADMIN-18: deleteScope refuses while a client or a workload rule holds the scope. The
 * page's read is bounded (DASH-16): where it ran out finding none, the deletion still reads all.
 */
export const scopeDeletionBlocked = (dependents: ScopeDependents): boolean =>
  dependents.clients.count > 0 || dependents.trustedIssuers.count > 0;
