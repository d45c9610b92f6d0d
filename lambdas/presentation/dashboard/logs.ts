/**
 * The logs in the dashboard (behaviour DASH-6, LOG-8, LOG-9): a client's token activity (by time, request type and
 * outcome) and the admin audit log (by time, type, actor and subject, LOG-15), both newest first and
 * paged with the filters kept (DASH-10), people and clients named (DASH-11); the same core listings as
 * GET /api/admin/clients/{client_id}/activity and GET /api/admin/audit.
 */
import * as z from 'zod/mini';
import { activityRequestTypes, listClientActivity } from '../../core/admin/activity';
import { listAuditLog } from '../../core/admin/audit';
import { getClient } from '../../core/admin/clients';
import { auditTypes, type AdminAuditEntry } from '../../core/model';
import { html, type Html } from '../html';
import { validate } from '../../http/validate';
import { type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { blankToUndefined, optionalTime } from './forms';
import { clientPath, dashboardPaths, userPath } from './layout';
import { actorName, emptyState, type NameCache, nameCache, pager } from './list-controls';

const pageSize = 50;

const activityQuery = z.object({
  request_type: z.optional(z.enum(activityRequestTypes)),
  success: z.optional(z.enum(['true', 'false'])),
});

function option(value: string, label: string, selected: string | undefined): Html {
  return html`<option value="${value}"${selected === value ? html` selected` : ''}>${label}</option>`;
}

function timeFields(from: string | undefined, to: string | undefined): Html {
  return html`<label for="from">From (e.g. 2030-01-01T00:00:00Z)</label><input id="from" name="from" type="text" value="${from ?? ''}">
<label for="to">To</label><input id="to" name="to" type="text" value="${to ?? ''}">`;
}

async function activityPage(request: DashboardRequest) {
  const client = await getClient(request.deps.admin, request.params.id!);
  const query = validate(activityQuery, Object.fromEntries(Object.entries(request.query).filter(([, v]) => v !== '')));
  const from = optionalTime('from', request.query.from);
  const to = optionalTime('to', request.query.to);
  const names = nameCache(request);
  const page = await listClientActivity(
    { activity: request.deps.activity, clients: request.deps.admin.clients },
    client.clientId,
    {
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(query.request_type ? { requestType: query.request_type } : {}),
      ...(query.success ? { success: query.success === 'true' } : {}),
    },
    { limit: pageSize, ...(blankToUndefined(request.query.cursor) ? { cursor: request.query.cursor! } : {}) },
  );
  const rows = await Promise.all(
    page.items.map(
      async (row) => html`<tr><td>${row.startedAt}</td><td>${row.requestType}</td><td>${row.success ? 'success' : 'failure'}</td>
<td>${row.reason ?? ''}</td><td>${row.userId ? html`<a href="${userPath(row.userId)}">${(await names.userName(row.userId)) ?? row.userId}</a>` : ''}</td><td>${row.apiKeyId ? html`<code>${row.apiKeyId}</code>` : ''}</td><td>${row.ip}</td></tr>`,
    ),
  );
  const filtered = Boolean(from || to || query.request_type || query.success);
  return pageResponse(
    request,
    `Token activity: ${client.name}`,
    html`<p><a href="${clientPath(client.clientId)}">Back to the client</a></p>
<form method="get" action="${clientPath(client.clientId, '/activity')}">${timeFields(from, to)}
<label for="request_type">Request type</label><select id="request_type" name="request_type">${option('', 'any', query.request_type ?? '')}${activityRequestTypes.map(
      (type) => option(type, type, query.request_type),
    )}</select>
<label for="success">Outcome</label><select id="success" name="success">${option('', 'any', query.success ?? '')}${option('true', 'success', query.success)}${option('false', 'failure', query.success)}</select>
<div><button type="submit">Filter</button></div></form>
<p>Newest first.</p>
<table id="activity"><thead><tr><th>Time</th><th>Request</th><th>Outcome</th><th>Reason</th><th>User</th><th>API key</th><th>IP</th></tr></thead><tbody>${rows}</tbody></table>${emptyState(page.items.length, filtered, 'token requests', page.next !== undefined)}
${pager(clientPath(client.clientId, '/activity'), request.query, page.next)}`,
  );
}

/** Behaviour DASH-11: the actor's address or name, its id beneath to copy. */
async function actorCell(names: NameCache, entry: AdminAuditEntry): Promise<Html> {
  const { actor } = entry;
  const role = actor.kind === 'admin-client' ? 'client' : actor.kind === 'admin-user' ? 'admin' : 'user';
  const id = actor.kind === 'admin-client' ? actor.clientId : actor.userId;
  return html`${role} ${await actorName(names, actor)}<br><code>${id}</code>`;
}

/** Behaviour DASH-11: a client's and a user's name beside their id. */
async function subjectOf(names: NameCache, entry: AdminAuditEntry): Promise<Html> {
  const parts: Html[] = [];
  if (entry.clientId) {
    const name = await names.clientName(entry.clientId);
    parts.push(html`client ${name ? `${name} ` : ''}<a href="${clientPath(entry.clientId)}"><code>${entry.clientId}</code></a>`);
  }
  if (entry.keyId) parts.push(html`key <code>${entry.keyId}</code>`);
  if (entry.userId) {
    const name = await names.userName(entry.userId);
    parts.push(html`user ${name ? `${name} ` : ''}<a href="${userPath(entry.userId)}"><code>${entry.userId}</code></a>`);
  }
  if (entry.environmentId) parts.push(html`environment <code>${entry.environmentId}</code>`);
  if (entry.scope) parts.push(html`scope <code>${entry.scope}</code>`);
  return html`${parts.map((part, i) => html`${i > 0 ? ', ' : ''}${part}`)}`;
}

/** A site change's fields, old → new (values are the admin's own input: escaped like everything else). */
function changesText(entry: AdminAuditEntry): string {
  return Object.entries(entry.changes ?? {})
    .map(([field, change]) => `${field}: ${JSON.stringify(change.from)} → ${JSON.stringify(change.to)}`)
    .join('; ');
}

async function auditPage(request: DashboardRequest) {
  const type = blankToUndefined(request.query.type);
  const from = blankToUndefined(request.query.from);
  const to = blankToUndefined(request.query.to);
  const actor = blankToUndefined(request.query.actor)?.trim();
  const subject = blankToUndefined(request.query.subject)?.trim();
  const page = await listAuditLog(
    { audit: request.deps.audit, clock: request.container.clock },
    {
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(type ? { type } : {}),
      ...(actor ? { actor: actor.slice(0, 200) } : {}),
      ...(subject ? { subject: subject.slice(0, 200) } : {}),
    },
    { limit: pageSize, ...(blankToUndefined(request.query.cursor) ? { cursor: request.query.cursor! } : {}) },
  );
  const families = [...new Set(auditTypes.map((t) => t.split('.')[0]!))];
  const names = nameCache(request);
  const rows = await Promise.all(
    page.items.map(
      async (
        entry,
      ) => html`<tr><td>${entry.at}</td><td class="type">${entry.type}</td><td class="actor">${await actorCell(names, entry)}</td><td>${await subjectOf(names, entry)}</td>
<td>${entry.reason ?? ''}${entry.scopes ? html` <span class="tag">${entry.scopes.join(' ')}</span>` : ''}${changesText(entry)}</td></tr>`,
    ),
  );
  return pageResponse(
    request,
    'Audit log',
    html`<form method="get" action="${dashboardPaths.audit}">${timeFields(from, to)}
<label for="type">Type</label><select id="type" name="type">${option('', 'any', type ?? '')}${families.map((f) => option(f, `${f}.*`, type))}${auditTypes.map(
      (t) => option(t, t, type),
    )}</select>
<label for="actor">Actor (a user or client ID)</label><input id="actor" name="actor" type="text" maxlength="200" value="${actor ?? ''}">
<label for="subject">About (a client, user, key or environment ID, or a scope)</label><input id="subject" name="subject" type="text" maxlength="200" value="${subject ?? ''}">
<div><button type="submit">Filter</button></div></form>
<p>Newest first; without a range, the last 7 days.</p>
<table id="audit"><thead><tr><th>Time</th><th>Type</th><th>Actor</th><th>Subject</th><th>Detail</th></tr></thead><tbody>${rows}</tbody></table>
${emptyState(page.items.length, Boolean(type || actor || subject), 'entries in this range', page.next !== undefined)}
${pager(dashboardPaths.audit, request.query, page.next)}`,
  );
}

export const logRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'clients/:id/activity', run: activityPage },
  { method: 'GET', path: 'audit', run: auditPage },
];
