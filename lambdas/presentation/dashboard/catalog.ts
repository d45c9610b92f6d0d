/**
 * Environments and scopes in the dashboard (behaviour DASH-6): list, create, delete (the core refuses an
 * environment that still holds clients or is the DCR environment, and a scope that is built in
 * or granted to a client, behaviour ADMIN-10, ADMIN-18). Audited with the admin as actor.
 */
import * as z from 'zod/mini';
import { createEnvironment, deleteEnvironment, listEnvironments } from '../../core/admin/environments';
import { builtInMeaningOf, createScope, deleteScope, getScope, listScopes } from '../../core/admin/scopes';
import { displayName, environmentId, scopeName } from '../../http/admin-schemas';
import { html } from '../html';
import { redirect } from '../../http/redirect';
import { validate } from '../../http/validate';
import { actorOf, confirmationPage, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { blankToUndefined, checkbox } from './forms';
import { actionButton, csrfField, dashboardPaths, nextPageLink } from './layout';

const environmentForm = z.object({ id: z.optional(environmentId), name: displayName });
const scopeForm = z.object({ name: scopeName, description: z.string().check(z.trim(), z.maxLength(500)), discoverable: checkbox });

const scopeNameField = z.object({ name: scopeName });

const notices: Record<string, string> = {
  created: 'Created.',
  deleted: 'The environment was deleted.',
  'scope-deleted': 'The scope was deleted.',
};

/**
 * A scope's name travels in the query (confirmation page) and the form (deletion), not the path:
 * a scope-token may hold `/`, which the decoded `{proxy+}` would split. The deletion posts to a
 * path with no page of its own, so a refusal's "Back" leads to the list (router.ts `backTo`),
 * not to a confirmation page that lost its name.
 */
const scopePaths = {
  confirmDelete: (name: string) => `${dashboardPaths.scopes}/delete?${new URLSearchParams({ name })}`,
  remove: `${dashboardPaths.scopes}/remove`,
};

async function environmentsPage(request: DashboardRequest) {
  const page = await listEnvironments(request.deps.admin, 50, blankToUndefined(request.query.cursor));
  const notice = request.query.done ? notices[request.query.done] : undefined;
  const dcr = request.deps.admin.dcrEnvironmentId;
  return pageResponse(
    request,
    'Environments',
    html`<table id="environments"><thead><tr><th>ID</th><th>Name</th><th>Created</th><th></th></tr></thead><tbody>${page.items.map(
      (e) => html`<tr><td><code>${e.id}</code>${e.id === dcr ? html` <span class="tag">self-registered clients</span>` : ''}</td>
<td>${e.name}</td><td>${e.createdAt}</td><td>${actionButton(`${dashboardPaths.environments}/${encodeURIComponent(e.id)}/delete`, request.admin.csrf, 'Delete')}</td></tr>`,
    )}</tbody></table>${nextPageLink(dashboardPaths.environments, {}, page.next)}
<fieldset><legend>Create an environment</legend><form method="post" action="${dashboardPaths.environments}/new">${csrfField(request.admin.csrf)}
<label for="env-id">ID (optional: letters, digits, _ or -)</label><input id="env-id" name="id" type="text" maxlength="64">
<label for="env-name">Name</label><input id="env-name" name="name" type="text" required maxlength="200">
<div><button type="submit">Create</button></div></form></fieldset>`,
    { notice },
  );
}

async function createEnvironmentAction(request: DashboardRequest) {
  const form = validate(environmentForm, {
    name: request.form.name,
    ...(blankToUndefined(request.form.id) ? { id: request.form.id!.trim() } : {}),
  });
  await createEnvironment(request.deps.admin, actorOf(request), { name: form.name, ...(form.id ? { id: form.id } : {}) });
  return redirect(`${dashboardPaths.environments}?done=created`);
}

async function deleteEnvironmentAction(request: DashboardRequest) {
  const id = validate(environmentId, request.params.id);
  await deleteEnvironment(request.deps.admin, actorOf(request), id);
  return redirect(`${dashboardPaths.environments}?done=deleted`);
}

async function scopesPage(request: DashboardRequest) {
  const scopes = await listScopes(request.deps.admin);
  const notice = request.query.done ? notices[request.query.done] : undefined;
  return pageResponse(
    request,
    'Scopes',
    html`<table id="scopes"><thead><tr><th>Name</th><th>Description</th><th>In discovery</th><th></th></tr></thead><tbody>${scopes.map(
      (s) => html`<tr><td><code>${s.name}</code></td><td>${s.description}</td><td>${s.discoverable ? 'yes' : 'no'}</td>
<td>${builtInMeaningOf(s.name) ? html`<span class="tag">built in</span>` : html`<a href="${scopePaths.confirmDelete(s.name)}" class="danger">Delete</a>`}</td></tr>`,
    )}</tbody></table>
<fieldset><legend>Create a scope</legend><form method="post" action="${dashboardPaths.scopes}/new">${csrfField(request.admin.csrf)}
<label for="scope-name">Name</label><input id="scope-name" name="name" type="text" required maxlength="128">
<label for="scope-description">Description</label><input id="scope-description" name="description" type="text" maxlength="500">
<label><input name="discoverable" type="checkbox"> Listed in discovery (scopes_supported)</label>
<div><button type="submit">Create</button></div></form></fieldset>`,
    { notice },
  );
}

async function createScopeAction(request: DashboardRequest) {
  const form = validate(scopeForm, { description: '', ...request.form });
  await createScope(request.deps.admin, actorOf(request), {
    name: form.name,
    description: form.description,
    discoverable: form.discoverable === 'on',
  });
  return redirect(`${dashboardPaths.scopes}?done=created`);
}

async function confirmDeleteScope(request: DashboardRequest) {
  const { name } = validate(scopeNameField, { name: request.query.name });
  await getScope(request.deps.admin, name);
  return confirmationPage(request, {
    title: `Delete the scope ${name}?`,
    consequence: html`Deleting <code>${name}</code> removes it from the catalog; discovery may list it for a few minutes more (its caches). It is refused
while any client is granted it or a trusted issuer's workload rule gives it: remove it from those first. Tokens already issued with it run out on their own.`,
    action: scopePaths.remove,
    label: 'Delete the scope',
    hidden: { name },
    back: dashboardPaths.scopes,
  });
}

async function deleteScopeAction(request: DashboardRequest) {
  const { name } = validate(scopeNameField, { name: request.form.name });
  await deleteScope(request.deps.admin, actorOf(request), name);
  return redirect(`${dashboardPaths.scopes}?done=scope-deleted`);
}

export const catalogRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'environments', run: environmentsPage },
  { method: 'POST', path: 'environments/new', run: createEnvironmentAction },
  { method: 'POST', path: 'environments/:id/delete', run: deleteEnvironmentAction },
  { method: 'GET', path: 'scopes', run: scopesPage },
  { method: 'POST', path: 'scopes/new', run: createScopeAction },
  { method: 'GET', path: 'scopes/delete', run: confirmDeleteScope },
  { method: 'POST', path: 'scopes/remove', run: deleteScopeAction },
];
