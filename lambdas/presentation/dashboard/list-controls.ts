/**
 * What every dashboard list shares (behaviour DASH-10, DASH-11): the filter form (a GET, so the
 * address is the list's state and a reload or Back shows the same page), "First page" and "Next
 * page" links that keep the filters, the empty state, and the names shown in place of ids.
 */
import { everyEnvironment } from '../../core/admin/environments';
import type { AdminActor } from '../../core/admin/audit';
import type { ApiKeyCreator } from '../../core/model';
import { html, type Html } from '../html';
import type { DashboardRequest } from './context';

/** The query's non-empty values, without `cursor` and `done`: what a page link keeps. */
export function filtersOf(query: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([name, value]) => value.trim() !== '' && name !== 'cursor' && name !== 'done'));
}

/** The query with the blank fields of a submitted filter form left out (a blank select means "any"). */
export const givenFields = (query: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value.trim() !== ''));

const withQuery = (path: string, query: Record<string, string>) => {
  const params = new URLSearchParams(query).toString();
  return params ? `${path}?${params}` : path;
};

/** "First page" once past it, "Next page" while there is one; both keep the filters (behaviour DASH-10). */
export function pager(path: string, query: Readonly<Record<string, string>>, next: string | undefined): Html | '' {
  const filters = filtersOf(query);
  const first = query.cursor ? html`<a href="${withQuery(path, filters)}" rel="first">First page</a>` : '';
  const more = next ? html`<a href="${withQuery(path, { ...filters, cursor: next })}" rel="next">Next page</a>` : '';
  return first || more ? html`<nav class="pages">${first}${more}</nav>` : '';
}

export function searchField(value: string | undefined, label: string): Html {
  return html`<label for="search">${label}</label><input id="search" name="search" type="search" maxlength="254" value="${value ?? ''}">`;
}

/** A filter select whose first option, "any", sends nothing. */
export function filterSelect(
  name: string,
  label: string,
  options: readonly (readonly [string, string])[],
  selected: string | undefined,
): Html {
  return html`<label for="${name}">${label}</label><select id="${name}" name="${name}"><option value="">any</option>${options.map(
    ([value, text]) => html`<option value="${value}"${selected === value ? html` selected` : ''}>${text}</option>`,
  )}</select>`;
}

/** The GET form of a list: its fields, Filter, and a way back to the whole list. */
export function filterForm(path: string, fields: Html, hidden: Record<string, string> = {}): Html {
  return html`<form method="get" action="${path}" class="filters" role="search">${Object.entries(hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}${fields}<div><button type="submit">Filter</button> <a href="${withQuery(path, hidden)}">Clear</a></div></form>`;
}

/** Behaviour DASH-10: an empty page says whether nothing exists or nothing matched. */
export function emptyState(count: number, filtered: boolean, what: string, hasNext: boolean): Html | '' {
  if (count > 0) return '';
  if (hasNext) return html`<p class="empty">No ${what} match on this stretch of the list; the next page reads on.</p>`;
  return html`<p class="empty">${filtered ? `No ${what} match these filters.` : `No ${what} yet.`}</p>`;
}

/** Behaviour DASH-11: the environments' names by id, read once per page (core/admin/environments.ts everyEnvironment). */
export async function environmentNames(request: DashboardRequest): Promise<Map<string, string>> {
  return new Map((await everyEnvironment(request.deps.admin)).map((environment) => [environment.id, environment.name]));
}

/** A name in place of an id, the id kept as the hover text. */
export const named = (names: ReadonlyMap<string, string>, id: string): Html => html`<span title="${id}">${names.get(id) ?? id}</span>`;

/**
 * Behaviour DASH-11: who an audit entry's actor is, by address (or name), each user and client of
 * the page read once (a per-page cache: many entries share their actor).
 */
export function nameCache(request: DashboardRequest) {
  const users = new Map<string, Promise<string | undefined>>();
  const clients = new Map<string, Promise<string | undefined>>();
  const userName = (id: string) => {
    if (!users.has(id))
      users.set(
        id,
        request.deps.admin.users.get(id).then((user) => user && (user.email ?? user.name)),
      );
    return users.get(id)!;
  };
  const clientName = (id: string) => {
    if (!clients.has(id))
      clients.set(
        id,
        request.deps.admin.clients.get(id).then((client) => client?.name),
      );
    return clients.get(id)!;
  };
  return { userName, clientName };
}

export type NameCache = ReturnType<typeof nameCache>;

/** The actor's address or name, else its id (a deleted user or client keeps its id). */
export async function actorName(names: NameCache, actor: AdminActor | ApiKeyCreator): Promise<string> {
  if (actor.kind === 'admin-client') return (await names.clientName(actor.clientId)) ?? actor.clientId;
  return (await names.userName(actor.userId)) ?? actor.userId;
}
