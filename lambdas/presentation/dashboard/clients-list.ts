/**
 * The clients list in the dashboard (behaviour DASH-6, DASH-10, DASH-11): static or dynamic
 * (self-registered), newest first, with the admin API's search and filters (ADMIN-21), pages
 * that keep them, and the environment's name in place of its id.
 */
import * as z from 'zod/mini';
import { findClients } from '../../core/admin/client-list';
import type { Client, RegistrationType } from '../../core/model';
import { environmentId } from '../../http/admin-schemas';
import { validate } from '../../http/validate';
import { html, type Html } from '../html';
import { type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { clientPath, dashboardPaths } from './layout';
import { emptyState, environmentNames, filterForm, filterSelect, filtersOf, givenFields, named, pager, searchField } from './list-controls';

const pageSize = 25;

const listQuery = z.object({
  registration: z._default(z.enum(['static', 'dynamic']), 'static'),
  search: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  type: z.optional(z.enum(['public', 'confidential'])),
  environment_id: z.optional(environmentId),
  cursor: z.optional(z.string().check(z.maxLength(2048))),
  done: z.optional(z.string()),
});

const notices: Record<string, string> = { deleted: 'The client was deleted; its API keys were revoked.' };

function clientRow(client: Client, environments: ReadonlyMap<string, string>): Html {
  return html`<tr><td><a href="${clientPath(client.clientId)}">${client.name}</a></td><td><code>${client.clientId}</code></td>
<td>${client.type}</td><td>${named(environments, client.environmentId)}</td>
<td>${client.registrationType === 'dynamic' ? html`<span class="tag">self-registered</span>` : 'static'}</td><td>${client.createdAt}</td></tr>`;
}

/** `?type=static|dynamic` was this page's registration switch before `type` meant public or confidential: such links still work. */
function legacyRegistration(query: Record<string, string>): Record<string, string> {
  const { type, ...rest } = query;
  return type === 'static' || type === 'dynamic' ? { registration: type, ...rest } : query;
}

async function listPage(request: DashboardRequest) {
  const query = validate(listQuery, legacyRegistration(givenFields(request.query)));
  const [page, environments] = await Promise.all([
    findClients(
      request.deps.admin,
      {
        registrationType: query.registration,
        ...(query.search ? { search: query.search } : {}),
        ...(query.type ? { type: query.type } : {}),
        ...(query.environment_id ? { environmentId: query.environment_id } : {}),
      },
      { limit: pageSize, cursor: query.cursor },
    ),
    environmentNames(request),
  ]);
  const filters = filtersOf(legacyRegistration(request.query));
  const tab = (registration: RegistrationType, label: string) =>
    query.registration === registration
      ? html`<strong>${label}</strong>`
      : html`<a href="${dashboardPaths.clients}?${new URLSearchParams({ ...filters, registration }).toString()}">${label}</a>`;
  const filtered = Boolean(query.search || query.type || query.environment_id);
  return pageResponse(
    request,
    'Clients',
    html`<nav class="pages">Show: ${tab('static', 'Static')} ${tab('dynamic', 'Dynamic (self-registered)')}</nav>
<p><a href="${dashboardPaths.clients}/new">Create a client</a></p>
${filterForm(
  dashboardPaths.clients,
  html`${searchField(query.search, 'Search by client ID, or a part of the name')}
${filterSelect(
  'type',
  'Type',
  [
    ['confidential', 'Confidential'],
    ['public', 'Public'],
  ],
  query.type,
)}
${filterSelect(
  'environment_id',
  'Environment',
  [...environments].map(([id, name]) => [id, name] as const),
  query.environment_id,
)}`,
  { registration: query.registration },
)}
<table id="clients"><thead><tr><th>Name</th><th>Client ID</th><th>Type</th><th>Environment</th><th>Registration</th><th>Created</th></tr></thead>
<tbody>${page.items.map((client) => clientRow(client, environments))}</tbody></table>
${emptyState(page.items.length, filtered, `${query.registration} clients`, page.next !== undefined)}
${pager(dashboardPaths.clients, legacyRegistration(request.query), page.next)}`,
    { notice: query.done ? notices[query.done] : undefined },
  );
}

export const clientListRoutes: readonly DashboardRoute[] = [{ method: 'GET', path: 'clients', run: listPage }];
