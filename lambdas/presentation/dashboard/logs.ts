/**
 * The logs in the dashboard (behaviour DASH-6, LOG-8, LOG-9): a client's token activity (by time, request type and
 * outcome) and the admin audit log (by time and type), paged; the same core listings as
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
import { clientPath, dashboardPaths, nextPageLink } from './layout';

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
<table id="activity"><thead><tr><th>Time</th><th>Request</th><th>Outcome</th><th>Reason</th><th>User</th><th>API key</th><th>IP</th></tr></thead><tbody>${page.items.map(
      (row) => html`<tr><td>${row.startedAt}</td><td>${row.requestType}</td><td>${row.success ? 'success' : 'failure'}</td>
<td>${row.reason ?? ''}</td><td>${row.userId ?? ''}</td><td>${row.apiKeyId ? html`<code>${row.apiKeyId}</code>` : ''}</td><td>${row.ip}</td></tr>`,
    )}</tbody></table>${page.items.length === 0 ? html`<p>No activity in this range.</p>` : ''}
${nextPageLink(clientPath(client.clientId, '/activity'), { ...request.query, cursor: undefined }, page.next)}`,
  );
}

function actorText(entry: AdminAuditEntry): string {
  return entry.actor.kind === 'admin-client'
    ? `client ${entry.actor.clientId}`
    : `${entry.actor.kind === 'admin-user' ? 'admin' : 'user'} ${entry.actor.userId}`;
}

function subjectOf(entry: AdminAuditEntry): Html {
  const parts: Html[] = [];
  if (entry.clientId) parts.push(html`client <a href="${clientPath(entry.clientId)}"><code>${entry.clientId}</code></a>`);
  if (entry.keyId) parts.push(html`key <code>${entry.keyId}</code>`);
  if (entry.userId) parts.push(html`user <code>${entry.userId}</code>`);
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
  const page = await listAuditLog(
    { audit: request.deps.audit, clock: request.container.clock },
    { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(type ? { type } : {}) },
    { limit: pageSize, ...(blankToUndefined(request.query.cursor) ? { cursor: request.query.cursor! } : {}) },
  );
  const families = [...new Set(auditTypes.map((t) => t.split('.')[0]!))];
  return pageResponse(
    request,
    'Audit log',
    html`<form method="get" action="${dashboardPaths.audit}">${timeFields(from, to)}
<label for="type">Type</label><select id="type" name="type">${option('', 'any', type ?? '')}${families.map((f) => option(f, `${f}.*`, type))}${auditTypes.map(
      (t) => option(t, t, type),
    )}</select>
<div><button type="submit">Filter</button></div></form>
<p>Newest first; without a range, the last 7 days.</p>
<table id="audit"><thead><tr><th>Time</th><th>Type</th><th>Actor</th><th>Subject</th><th>Detail</th></tr></thead><tbody>${page.items.map(
      (entry) => html`<tr><td>${entry.at}</td><td class="type">${entry.type}</td><td>${actorText(entry)}</td><td>${subjectOf(entry)}</td>
<td>${entry.reason ?? ''}${entry.scopes ? html` <span class="tag">${entry.scopes.join(' ')}</span>` : ''}${changesText(entry)}</td></tr>`,
    )}</tbody></table>${page.items.length === 0 ? html`<p>No entries in this range.</p>` : ''}
${nextPageLink(dashboardPaths.audit, { ...request.query, cursor: undefined }, page.next)}`,
  );
}

export const logRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'clients/:id/activity', run: activityPage },
  { method: 'GET', path: 'audit', run: auditPage },
];
