/** Admin operations on the scope catalog. */
import { ConflictRequestError, InvalidRequestError, ScopeCatalogChangedError } from '../errors';
import type { ScopeDefinition } from '../ports';
import { serverDefinedScopes } from '../scope';
import { type AdminActor, auditEntryOf } from './audit';
import { found } from './not-found';
import type { AdminDependencies, CatalogCheck } from './ports';

export function listScopes(deps: Pick<AdminDependencies, 'scopes'>): Promise<readonly ScopeDefinition[]> {
  return deps.scopes.listScopes();
}

export async function getScope(deps: Pick<AdminDependencies, 'scopes'>, name: string): Promise<ScopeDefinition> {
  return found(
    (await deps.scopes.listScopes()).find((s) => s.name === name),
    'scope',
    name,
  );
}

/** Why the server itself needs the scope (lambdas/core/scope.ts), or undefined for one the admin may delete. */
export function builtInMeaningOf(name: string): string | undefined {
  return Object.hasOwn(serverDefinedScopes, name) ? serverDefinedScopes[name] : undefined;
}

export async function createScope(
  deps: Pick<AdminDependencies, 'scopes' | 'clock'>,
  actor: AdminActor,
  scope: ScopeDefinition,
): Promise<ScopeDefinition> {
  if (!(await deps.scopes.createScope(scope, auditEntryOf(deps, actor, { type: 'scope.create', scope: scope.name }))))
    throw new ConflictRequestError(`The scope "${scope.name}" already exists.`);
  return scope;
}

/** How many holders a refusal names by id: enough to start from, short enough to read. */
const namedHolders = 3;

/**
 * Behaviour ADMIN-18. Refused for a scope the server gives a meaning to (the code acts on the
 * name whatever the catalog says), and while any client is granted it: the client, and its API
 * keys (whose exchange re-checks only that the client still grants each scope, KEYX-5), would
 * go on being issued a scope the catalog no longer knows. Tokens already issued with it run out
 * on their own.
 *
 * Check, then delete: the delete moves the catalog version in its transaction, so an admin
 * create or update that checked the scope before it fails unwritten and checks again
 * (withCheckedScopes). What the holder check still cannot see (a grant written the instant
 * before, not yet in the index it reads; a registration checking a container's catalog up to a
 * minute old) keeps the name in the client record, but issuance leaves out every scope the
 * catalog lacks (withCatalogScopes), so no token carries it.
 */
export async function deleteScope(
  deps: Pick<AdminDependencies, 'scopes' | 'clients' | 'trustedIssuers' | 'clock'>,
  actor: AdminActor,
  name: string,
): Promise<void> {
  await getScope(deps, name);
  const meaning = builtInMeaningOf(name);
  if (meaning) throw new ConflictRequestError(`The scope "${name}" is built in (${meaning}); it cannot be deleted.`);
  const holders = await deps.clients.holdersOfScope(name, namedHolders);
  if (holders.count > 0) {
    const ids = holders.sample.map((id) => `"${id}"`).join(', ');
    const more = holders.count > holders.sample.length ? ', ...' : '';
    throw new ConflictRequestError(
      `The scope "${name}" is granted to ${holders.count} client${holders.count > 1 ? 's' : ''} (${ids}${more}); remove it from them first.`,
    );
  }
  // Behaviour ADMIN-18, TRUST-6: a workload rule holds a scope as a client does.
  const rules = await deps.trustedIssuers.holdersOfScope(name, namedHolders);
  if (rules.count > 0) {
    const ids = rules.sample.map((id) => `"${id}"`).join(', ');
    const more = rules.count > rules.sample.length ? ', ...' : '';
    throw new ConflictRequestError(
      `The scope "${name}" is given by the workload rules of ${rules.count} trusted issuer${rules.count > 1 ? 's' : ''} (${ids}${more}); remove it from them first.`,
    );
  }
  // Not "was it there?" from the delete itself: when DynamoDB's reply is lost, the client's retry
  // finds nothing to delete, and the admin would be told 404 (and no audit entry written) for a
  // delete that happened. Two concurrent deletes both answer 204. The `scope.delete` entry is
  // written in the deletion's transaction (behaviour LOG-9).
  await deps.scopes.deleteScope(name, auditEntryOf(deps, actor, { type: 'scope.delete', scope: name }));
}

/**
 * Scopes granted to a client must be in the catalog (behaviour ADMIN-12), checked with strongly
 * consistent reads so a scope created a moment ago can be granted at once and one deleted a
 * moment ago cannot. The answer is handed to the client write, which fails with
 * ScopeCatalogChangedError when a scope was deleted after this check (behaviour ADMIN-18).
 */
export async function requireKnownScopes(
  deps: Pick<AdminDependencies, 'scopes'>,
  names: readonly string[],
  field = 'scopes',
): Promise<CatalogCheck | undefined> {
  if (names.length === 0) return undefined;
  const { catalogVersion, missing } = await deps.scopes.checkScopes(names);
  if (missing.length > 0) {
    throw new InvalidRequestError(`${field}: unknown scope${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')}.`);
  }
  return { catalogVersion };
}

/**
 * Checks `names` against the catalog, then writes with that check as the write's condition;
 * a scope deleted in between makes the write fail unwritten, and the check runs again (and
 * names the deleted scope). A deletion per attempt, three times running, is an error.
 */
export async function withCheckedScopes<T>(
  deps: Pick<AdminDependencies, 'scopes'>,
  names: readonly string[],
  write: (catalog: CatalogCheck | undefined) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const catalog = await requireKnownScopes(deps, names);
    try {
      return await write(catalog);
    } catch (error) {
      if (!(error instanceof ScopeCatalogChangedError) || attempt >= 3) throw error;
    }
  }
}
