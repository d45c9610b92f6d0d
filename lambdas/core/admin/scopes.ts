/** Admin operations on the scope catalog. */
import { ConflictRequestError, InvalidRequestError } from '../errors';
import type { ScopeDefinition } from '../ports';
import type { AdminDependencies } from './ports';

export function listScopes(deps: Pick<AdminDependencies, 'scopes'>): Promise<readonly ScopeDefinition[]> {
  return deps.scopes.listScopes();
}

export async function createScope(deps: Pick<AdminDependencies, 'scopes'>, scope: ScopeDefinition): Promise<ScopeDefinition> {
  if (!(await deps.scopes.createScope(scope))) throw new ConflictRequestError(`The scope "${scope.name}" already exists.`);
  return scope;
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
