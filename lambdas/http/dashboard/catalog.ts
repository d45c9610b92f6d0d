/**
 * Environments and scopes in the dashboard (issue 14): list, create; environments also delete
 * (the core refuses one that still holds clients or is the DCR environment). Audited with the
 * admin as actor.
 */
import * as z from 'zod/mini';
import { createEnvironment, deleteEnvironment, listEnvironments } from '../../core/admin/environments';
import { createScope, listScopes } from '../../core/admin/scopes';
import { displayName, environmentId, scopeName } from '../admin-schemas';
import { html } from '../html';
import { redirect } from '../redirect';
import { validate } from '../validate';
import { audit, type DashboardRequest, type DashboardRoute, frameOf } from './context';
import { blankToUndefined, checkbox } from './forms';
import { actionButton, csrfField, dashboardPage, dashboardPaths, dashboardResponse, nextPageLink } from './layout';

const environmentForm = z.object({ id: z.optional(environmentId), name: displayName });
const scopeForm = z.object({ name: scopeName, description: z.string().check(z.trim(), z.maxLength(500)), discoverable: checkbox });

const notices: Record<string, string> = {
  created: 'Created.',
  deleted: 'The environment was deleted.',
};

async function environmentsPage(request: DashboardRequest) {
  const page = await listEnvironments(request.deps.admin, 50, blankToUndefined(request.query.cursor));
  const notice = request.query.done ? notices[request.query.done] : undefined;
  const dcr = request.deps.admin.dcrEnvironmentId;
  return dashboardResponse(
    200,
    dashboardPage(
      'Environments',
      frameOf(request, notice ? { notice } : {}),
      html`<table id="environments"><thead><tr><th>ID</th><th>Name</th><th>Created</th><th></th></tr></thead><tbody>${page.items.map(
        (e) => html`<tr><td><code>${e.id}</code>${e.id === dcr ? html` <span class="tag">self-registered clients</span>` : ''}</td>
<td>${e.name}</td><td>${e.createdAt}</td><td>${actionButton(`${dashboardPaths.environments}/${encodeURIComponent(e.id)}/delete`, request.admin.csrf, 'Delete')}</td></tr>`,
      )}</tbody></table>${nextPageLink(dashboardPaths.environments, {}, page.next)}
<fieldset><legend>Create an environment</legend><form method="post" action="${dashboardPaths.environments}/new">${csrfField(request.admin.csrf)}
<label for="env-id">ID (optional: letters, digits, _ or -)</label><input id="env-id" name="id" type="text" maxlength="64">
<label for="env-name">Name</label><input id="env-name" name="name" type="text" required maxlength="200">
<div><button type="submit">Create</button></div></form></fieldset>`,
    ),
  );
}

async function createEnvironmentAction(request: DashboardRequest) {
  const form = validate(environmentForm, {
    name: request.form.name,
    ...(blankToUndefined(request.form.id) ? { id: request.form.id!.trim() } : {}),
  });
  const environment = await createEnvironment(request.deps.admin, { name: form.name, ...(form.id ? { id: form.id } : {}) });
  await audit(request, { type: 'environment.create', environmentId: environment.id });
  return redirect(`${dashboardPaths.environments}?done=created`);
}

async function deleteEnvironmentAction(request: DashboardRequest) {
  const id = validate(environmentId, request.params.id);
  await deleteEnvironment(request.deps.admin, id);
  await audit(request, { type: 'environment.delete', environmentId: id });
  return redirect(`${dashboardPaths.environments}?done=deleted`);
}

async function scopesPage(request: DashboardRequest) {
  const scopes = await listScopes(request.deps.admin);
  const notice = request.query.done ? notices[request.query.done] : undefined;
  return dashboardResponse(
    200,
    dashboardPage(
      'Scopes',
      frameOf(request, notice ? { notice } : {}),
      html`<table id="scopes"><thead><tr><th>Name</th><th>Description</th><th>In discovery</th></tr></thead><tbody>${scopes.map(
        (s) => html`<tr><td><code>${s.name}</code></td><td>${s.description}</td><td>${s.discoverable ? 'yes' : 'no'}</td></tr>`,
      )}</tbody></table>
<fieldset><legend>Create a scope</legend><form method="post" action="${dashboardPaths.scopes}/new">${csrfField(request.admin.csrf)}
<label for="scope-name">Name</label><input id="scope-name" name="name" type="text" required maxlength="128">
<label for="scope-description">Description</label><input id="scope-description" name="description" type="text" maxlength="500">
<label><input name="discoverable" type="checkbox"> Listed in discovery (scopes_supported)</label>
<div><button type="submit">Create</button></div></form></fieldset>`,
    ),
  );
}

async function createScopeAction(request: DashboardRequest) {
  const form = validate(scopeForm, { description: '', ...request.form });
  await createScope(request.deps.admin, { name: form.name, description: form.description, discoverable: form.discoverable === 'on' });
  await audit(request, { type: 'scope.create', scope: form.name });
  return redirect(`${dashboardPaths.scopes}?done=created`);
}

export const catalogRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'environments', run: environmentsPage },
  { method: 'POST', path: 'environments/new', run: createEnvironmentAction },
  { method: 'POST', path: 'environments/:id/delete', run: deleteEnvironmentAction },
  { method: 'GET', path: 'scopes', run: scopesPage },
  { method: 'POST', path: 'scopes/new', run: createScopeAction },
];
