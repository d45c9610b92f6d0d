/** Admin operations on the scope catalog. */
import { ConflictRequestError, InvalidRequestError, NotFoundError } from '../errors';
import type { ScopeDefinition } from '../ports';
import { serverDefinedScopes } from '../scope';
import { type AdminActor, auditEntryOf } from './audit';
import type { AdminDependencies } from './ports';

export function listScopes(deps: Pick<AdminDependencies, 'scopes'>): Promise<readonly ScopeDefinition[]> {
  return deps.scopes.listScopes();
}

export async function getScope(deps: Pick<AdminDependencies, 'scopes'>, name: string): Promise<ScopeDefinition> {
  const scope = (await deps.scopes.listScopes()).find((s) => s.name === name);
  if (!scope) throw new NotFoundError(`No scope "${name}".`);
  return scope;
}

/** Why the server itself needs the scope (lambdas/core/scope.ts), or undefined for one the admin may delete. */
export function builtInMeaningOf(name: string): string | undefined {
  return Object.hasOwn(serverDefinedScopes, name) ? serverDefinedScopes[name] : undefined;
}

export async function createScope(
  deps: Pick<AdminDependencies, 'scopes' | 'clock'>,
  scope: ScopeDefinition,
  actor: AdminActor,
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
 * Check, then delete: a client granted the scope between the two (an admin create or update
 * whose catalog read came first, or a registration or metadata-document refresh reading a
 * container's catalog cache, at most 60 s old) keeps it. Closing that would need a lock over
 * every client record for a rare admin call; instead it stays visible (the client's scopes
 * list it) and repairable (remove it from the client; creating the scope again and deleting it
 * names the holders), and nothing new is granted a deleted scope once the caches expire.
 */
export async function deleteScope(deps: Pick<AdminDependencies, 'scopes' | 'clients'>, name: string): Promise<void> {
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
  // Not "was it there?" from the delete itself: when DynamoDB's reply is lost, the client's retry
  // finds nothing to delete, and the admin would be told 404 (and no audit entry written) for a
  // delete that happened. Two concurrent deletes both answer 204.
  await deps.scopes.deleteScope(name);
}

/**
 * Scopes granted to a client must be in the catalog. Read fresh, not through the
 * discovery cache, so a scope created a moment ago can be granted at once.
 */
export async function requireKnownScopes(
  deps: Pick<AdminDependencies, 'scopes'>,
  names: readonly string[],
  field = 'scopes',
): Promise<void> {
  if (names.length === 0) return;
  const known = new Set((await deps.scopes.listScopes()).map((s) => s.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new InvalidRequestError(`${field}: unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}.`);
  }
}
