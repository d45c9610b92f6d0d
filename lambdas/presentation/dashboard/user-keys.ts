/**
 * A user's API keys on the user's page (behaviour DASH-18): across clients, newest first, each
 * with its client's name, status and a link to that client's keys page, where it is revoked.
 */
import { listKeysOfUser } from '../../core/api-keys/list-and-revoke';
import { keyStatus } from '../../core/api-keys/status';
import { html, type Html } from '../html';
import type { DashboardRequest } from './context';
import { clientPath } from './layout';
import { nameCache } from './list-controls';

/** How many of a user's keys the page lists; the rest are on each client's keys page. */
export const userKeysShown = 25;

export async function userKeysSection(request: DashboardRequest, userId: string): Promise<Html> {
  const { items, more } = await listKeysOfUser(request.deps.apiKeys, userId, userKeysShown);
  const names = nameCache(request);
  const now = request.container.clock.now();
  const rows = await Promise.all(
    items.map(async (key) => {
      const client = (await names.clientName(key.clientId)) ?? key.clientId;
      return html`<tr data-key-id="${key.keyId}"><td><code>${key.keyId}</code></td><td>${key.name ?? ''}</td>
<td><a href="${clientPath(key.clientId, '/api-keys')}">${client}</a><br><code>${key.clientId}</code></td><td class="status">${keyStatus(key, now)}</td>
<td>${key.createdAt}</td><td>${key.expiresAt ?? ''}</td></tr>`;
    }),
  );
  return html`<h2>API keys</h2>
${
  items.length === 0
    ? html`<p id="user-keys-none">No API keys.</p>`
    : html`<p>Newest first, across clients; each client's keys page revokes them.</p>
<table id="user-keys"><thead><tr><th>Key ID</th><th>Name</th><th>Client</th><th>Status</th><th>Created</th><th>Expires</th></tr></thead><tbody>${rows}</tbody></table>`
}${more ? html`<p id="user-keys-more">More keys than these ${userKeysShown}: see each client's keys page.</p>` : ''}`;
}
