/**
 * The users list in the dashboard (behaviour DASH-6, DASH-10): newest first, with the admin
 * API's search and filters (ADMIN-22), and pages that keep them.
 */
import * as z from 'zod/mini';
import { findUsers } from '../../core/admin/user-list';
import type { User } from '../../core/model';
import { environmentId } from '../../http/admin-schemas';
import { validate } from '../../http/validate';
import { html, type Html } from '../html';
import { type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { dashboardPaths, userPath } from './layout';
import { emptyState, environmentNames, filterForm, filterSelect, givenFields, pager, searchField } from './list-controls';

const pageSize = 25;

const listQuery = z.object({
  search: z.optional(z.string().check(z.trim(), z.maxLength(254))),
  environment_id: z.optional(environmentId),
  admin: z.optional(z.enum(['true', 'false'])),
  cursor: z.optional(z.string().check(z.maxLength(2048))),
  done: z.optional(z.string()),
});

const notices: Record<string, string> = { deleted: 'The user was deleted, with their sessions, tokens, keys and passkeys.' };

function userRow(user: User): Html {
  return html`<tr><td><a href="${userPath(user.id)}">${user.name}</a><br><code>${user.id}</code></td><td>${user.email ?? ''}</td>
<td>${user.email ? (user.emailVerifiedAt ? 'verified' : 'not verified') : ''}</td><td>${user.admin ? 'admin' : ''}</td><td>${user.createdAt}</td></tr>`;
}

async function listPage(request: DashboardRequest) {
  const query = validate(listQuery, givenFields(request.query));
  const [page, environments] = await Promise.all([
    findUsers(
      request.deps.admin,
      {
        ...(query.search ? { search: query.search } : {}),
        ...(query.environment_id ? { environmentId: query.environment_id } : {}),
        ...(query.admin ? { admin: query.admin === 'true' } : {}),
      },
      { limit: pageSize, cursor: query.cursor },
    ),
    environmentNames(request),
  ]);
  const filtered = Boolean(query.search || query.environment_id || query.admin);
  return pageResponse(
    request,
    'Users',
    html`<p><a href="${dashboardPaths.users}/new">Create a user</a></p>
${filterForm(
  dashboardPaths.users,
  html`${searchField(query.search, 'Search by address, user ID, or a part of the name')}
${filterSelect(
  'environment_id',
  'Environment',
  [...environments].map(([id, name]) => [id, name] as const),
  query.environment_id,
)}
${filterSelect(
  'admin',
  'Role',
  [
    ['true', 'Administrators'],
    ['false', 'Not administrators'],
  ],
  query.admin,
)}`,
)}
${query.environment_id ? html`<p>Users granted this environment are listed by user ID.</p>` : ''}
<table id="users"><thead><tr><th>Name</th><th>Email</th><th>Email status</th><th>Role</th><th>Created</th></tr></thead>
<tbody>${page.items.map(userRow)}</tbody></table>
${emptyState(page.items.length, filtered, 'users', page.next !== undefined)}
${pager(dashboardPaths.users, request.query, page.next)}`,
    { notice: query.done ? notices[query.done] : undefined },
  );
}

export const userListRoutes: readonly DashboardRoute[] = [{ method: 'GET', path: 'users', run: listPage }];
