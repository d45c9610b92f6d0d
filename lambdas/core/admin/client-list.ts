/**
 * The clients list with its search and filters (behaviour ADMIN-21): newest first; an exact
 * client id is one GetItem, anything else reads the registration type's list in bounded pages.
 */
import type { Client, ClientType, RegistrationType } from '../model';
import { containsText, filteredPage, mayBeId, pageOf, searchText } from './filtered-pages';
import type { AdminDependencies, Page } from './ports';

export interface ClientQuery {
  /** Which list is browsed; an exact client id is found in either (its id names one client). */
  readonly registrationType: RegistrationType;
  /** An exact client id, or a part of the name or id (any case). */
  readonly search?: string;
  readonly type?: ClientType;
  readonly environmentId?: string;
}

export async function findClients(
  deps: Pick<AdminDependencies, 'clients'>,
  query: ClientQuery,
  page: { readonly limit: number; readonly cursor?: string | undefined },
): Promise<Page<Client>> {
  const text = searchText(query.search);
  const fits = (client: Client) =>
    (query.type === undefined || client.type === query.type) &&
    (query.environmentId === undefined || client.environmentId === query.environmentId);
  if (text !== undefined && page.cursor === undefined && mayBeId(query.search!.trim())) {
    const exact = await deps.clients.get(query.search!.trim());
    if (exact) return { items: fits(exact) ? [exact] : [] };
  }
  const matches = (client: Client) => fits(client) && (text === undefined || containsText(text, client.name, client.clientId));
  if (text === undefined && query.type === undefined && query.environmentId === undefined) {
    return pageOf(await deps.clients.list(query.registrationType, page.limit, page.cursor));
  }
  return filteredPage((limit, cursor) => deps.clients.list(query.registrationType, limit, cursor), matches, page);
}
