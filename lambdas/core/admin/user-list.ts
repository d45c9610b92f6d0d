/**
 * The users list with its search and filters (behaviour ADMIN-22): newest first; an address is
 * its EMAIL# item, an exact user id one GetItem, a part of a name or address reads the users
 * list in bounded pages; an environment reads that environment's grants instead (by user id).
 */
import type { User } from '../model';
import { containsText, filteredPage, mayBeId, pageOf, searchText } from './filtered-pages';
import type { AdminDependencies, Page } from './ports';

export interface UserQuery {
  /** An address, an exact user id, or a part of a name or address (any case). */
  readonly search?: string;
  /** Only users granted this environment. */
  readonly environmentId?: string;
  /** Only administrators (true) or only the others (false). */
  readonly admin?: boolean;
}

export async function findUsers(
  deps: Pick<AdminDependencies, 'users' | 'environments'>,
  query: UserQuery,
  page: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<Page<User>> {
  const text = searchText(query.search);
  const fitsRole = (user: User) => query.admin === undefined || user.admin === query.admin;
  if (text !== undefined && page.cursor === undefined) {
    const exact = text.includes('@')
      ? await deps.users.findByEmail(text)
      : mayBeId(query.search!.trim())
        ? await deps.users.get(query.search!.trim())
        : undefined;
    if (exact) return { items: fitsRole(exact) && (await inEnvironment(deps, exact, query.environmentId)) ? [exact] : [] };
  }
  const matches = (user: User) => fitsRole(user) && (text === undefined || containsText(text, user.name, user.email, user.id));
  const read = (limit: number, cursor?: string) =>
    query.environmentId === undefined ? deps.users.list(limit, cursor) : deps.users.listInEnvironment(query.environmentId, limit, cursor);
  if (text === undefined && query.admin === undefined) return pageOf(await read(page.limit, page.cursor));
  return filteredPage(read, matches, page);
}

async function inEnvironment(
  deps: Pick<AdminDependencies, 'environments'>,
  user: User,
  environmentId: string | undefined,
): Promise<boolean> {
  if (environmentId === undefined) return true;
  return (await deps.environments.grantsOf(user.id)).some((grant) => grant.environmentId === environmentId);
}
