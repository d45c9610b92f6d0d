/**
 * A client's API keys as a list of their own (behaviour DASH-10, DASH-11, ADMIN-23): newest
 * first, by status, paged with the filter kept, each key's user by address; revoking is the
 * client page's action (clients.ts), which the buttons post to.
 */
import * as z from 'zod/mini';
import { getClient } from '../../core/admin/clients';
import { listApiKeys } from '../../core/api-keys/list-and-revoke';
import { keyStatus } from '../../core/api-keys/status';
import type { ApiKey } from '../../core/model';
import { validate } from '../../http/validate';
import { html, type Html } from '../html';
import { actorOf, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { actionButton, clientPath, userPath } from './layout';
import { emptyState, filterForm, filterSelect, givenFields, type NameCache, nameCache, pager } from './list-controls';

const pageSize = 25;

const listQuery = z.object({
  status: z.optional(z.enum(['active', 'revoked', 'expired'])),
  cursor: z.optional(z.string().check(z.maxLength(2048))),
});

async function keyRow(request: DashboardRequest, names: NameCache, key: ApiKey): Promise<Html> {
  const status = keyStatus(key, request.container.clock.now());
  const user = (await names.userName(key.userId)) ?? key.userId;
  return html`<tr data-key-id="${key.keyId}"><td><code>${key.keyId}</code></td><td>${key.name ?? ''}</td>
<td><a href="${userPath(key.userId)}">${user}</a><br><code>${key.userId}</code></td><td>${key.scopes.join(' ')}</td><td class="status">${status}</td>
<td>${key.createdAt}</td><td>${key.lastUsedAt ?? 'never'}</td><td>${key.expiresAt ?? ''}</td>
<td>${status === 'active' ? actionButton(clientPath(key.clientId, `/keys/${encodeURIComponent(key.keyId)}/revoke`), request.admin.csrf, 'Revoke') : ''}</td></tr>`;
}

async function listPage(request: DashboardRequest) {
  const query = validate(listQuery, givenFields(request.query));
  const client = await getClient(request.deps.admin, request.params.id!);
  const page = await listApiKeys(
    request.deps.apiKeys,
    { kind: 'admin', actor: actorOf(request) },
    client.clientId,
    pageSize,
    query.cursor,
    query.status,
  );
  const names = nameCache(request);
  const rows = await Promise.all(page.items.map((key) => keyRow(request, names, key)));
  const path = clientPath(client.clientId, '/api-keys');
  return pageResponse(
    request,
    `API keys: ${client.name}`,
    html`<p><a href="${clientPath(client.clientId)}">Back to the client</a> (its page creates keys) · <code>${client.clientId}</code></p>
${filterForm(
  path,
  filterSelect(
    'status',
    'Status',
    [
      ['active', 'Active'],
      ['revoked', 'Revoked'],
      ['expired', 'Expired'],
    ],
    query.status,
  ),
)}
<p>Newest first.</p>
<table id="keys"><thead><tr><th>Key ID</th><th>Name</th><th>User</th><th>Scopes</th><th>Status</th><th>Created</th><th>Last used</th><th>Expires</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>
${emptyState(page.items.length, query.status !== undefined, 'API keys', page.next !== undefined)}
${pager(path, request.query, page.next)}`,
  );
}

export const clientKeyListRoutes: readonly DashboardRoute[] = [{ method: 'GET', path: 'clients/:id/api-keys', run: listPage }];
