/**
 * Environments and scopes in the dashboard (behaviour DASH-6): list, create, delete (the core refuses an
 * environment that still holds clients or is the DCR environment, and a scope that is built in
 * or granted to a client, behaviour ADMIN-10, ADMIN-18; the confirmation pages name those
 * dependents first, DASH-16). Audited with the admin as actor.
 */
import * as z from 'zod/mini';
import { environmentDeletionBlocked, environmentDependents, scopeDeletionBlocked, scopeDependents } from '../../core/admin/dependents';
import { createEnvironment, deleteEnvironment, getEnvironment, listEnvironments } from '../../core/admin/environments';
import type { ScopeHolders } from '../../core/admin/ports';
import { builtInMeaningOf, createScope, deleteScope, getScope, listScopes } from '../../core/admin/scopes';
import { displayName, environmentId, scopeName } from '../../http/admin-schemas';
import { html, type Html } from '../html';
import { redirect } from '../../http/redirect';
import { validate } from '../../http/validate';
import { actorOf, confirmationPage, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { blankForm, blankToUndefined, checkbox, describedBy, fieldError, formError, type FormState, isTicked, fieldValue } from './forms';
import { clientPath, csrfField, dashboardPaths, nextPageLink } from './layout';

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

const environmentPath = (id: string, rest = '') => `${dashboardPaths.environments}/${encodeURIComponent(id)}${rest}`;

async function environmentsPage(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const page = await listEnvironments(request.deps.admin, 50, blankToUndefined(request.query.cursor));
  const notice = request.query.done ? notices[request.query.done] : undefined;
  const dcr = request.deps.admin.dcrEnvironmentId;
  return pageResponse(
    request,
    'Environments',
    html`<table id="environments"><thead><tr><th>ID</th><th>Name</th><th>Created</th><th></th></tr></thead><tbody>${page.items.map(
      (
        e,
      ) => html`<tr data-environment-id="${e.id}"><td><code>${e.id}</code>${e.id === dcr ? html` <span class="tag">self-registered clients</span>` : ''}</td>
<td>${e.name}</td><td>${e.createdAt}</td><td>${
        // Behaviour DASH-16: self-registration keeps this one; the others say what depends on them before any delete.
        e.id === dcr
          ? html`<span title="DCR_ENVIRONMENT_ID">kept: new self-registered clients go here</span>`
          : html`<a href="${environmentPath(e.id, '/delete')}" class="danger">Delete…</a>`
      }</td></tr>`,
    )}</tbody></table>${nextPageLink(dashboardPaths.environments, {}, page.next)}
<fieldset><legend>Create an environment</legend><form method="post" action="${dashboardPaths.environments}/new">${csrfField(request.admin.csrf)}${formError(state)}
<label for="env-id">ID (optional: letters, digits, _ or -)</label><input id="env-id" name="id" type="text" maxlength="64" value="${fieldValue(state, 'id')}"${describedBy(state, 'id')}>${fieldError(state, 'id')}
<label for="env-name">Name</label><input id="env-name" name="name" type="text" required maxlength="200" value="${fieldValue(state, 'name')}"${describedBy(state, 'name')}>${fieldError(state, 'name')}
<div><button type="submit">Create</button></div></form></fieldset>`,
    { notice, status },
  );
}

/** The first few dependents by name, linked, and how many more (behaviour DASH-16). */
async function namedClients(request: DashboardRequest, holders: ScopeHolders): Promise<Html> {
  const clients = await Promise.all(holders.sample.map((id) => request.deps.admin.clients.get(id)));
  const more = holders.count - holders.sample.length;
  return html`<ul class="dependents">${holders.sample.map(
    (id, i) => html`<li><a href="${clientPath(id)}">${clients[i]?.name ?? id}</a> <code>${id}</code></li>`,
  )}${holders.more ? html`<li>and more</li>` : more > 0 ? html`<li>and ${more} more</li>` : ''}</ul>`;
}

/** Behaviour DASH-16: the count as far as it was read ("more than 10" past the names shown, "3 or more" where the reads ran out). */
function countedAsRead({ count, sample, more }: ScopeHolders): string {
  return !more ? `${count}` : count > sample.length ? `More than ${sample.length}` : `${count} or more`;
}

function clientsInIt(holders: ScopeHolders): string {
  const many = holders.count > 1 || holders.more;
  return `${countedAsRead(holders)} client${many ? 's are' : ' is'} in it: delete ${many ? 'them' : 'it'} first.`;
}

async function confirmDeleteEnvironment(request: DashboardRequest) {
  const environment = await getEnvironment(request.deps.admin, validate(environmentId, request.params.id));
  const dependents = await environmentDependents(request.deps.admin, environment.id);
  const blockers = html`${
    dependents.selfRegistration
      ? html`<li id="dependent-self-registration">Self-registration places new clients here (<code>DCR_ENVIRONMENT_ID</code>): change that setting first.</li>`
      : ''
  }${
    dependents.clients.count > 0
      ? html`<li id="dependent-clients">${clientsInIt(dependents.clients)}${await namedClients(request, dependents.clients)}</li>`
      : ''
  }${dependents.trustedIssuers ? html`<li id="dependent-trusted-issuers">Trusted issuers issue for it: delete them first.</li>` : ''}`;
  const title = `Delete the environment ${environment.name}?`;
  // Behaviour DASH-16: where the deletion would be refused, the page says why and offers no button.
  if (environmentDeletionBlocked(dependents)) {
    return pageResponse(
      request,
      title,
      html`<p class="error" role="alert">This environment cannot be deleted while:</p><ul id="dependents">${blockers}</ul>
<p><a href="${dashboardPaths.environments}">Back to the environments</a></p>`,
    );
  }
  return confirmationPage(request, {
    title,
    consequence: html`Deleting <code>${environment.id}</code> removes it and every user's grant of it. ${
      dependents.clients.more
        ? // Behaviour DASH-16: the page's reads ran out before a client was found; the deletion reads every one and refuses (409) if one is there.
          html`<span id="dependents-unread">No client was found in it among the first clients read; the deletion checks them all and is refused if one is there.</span> No trusted issuer depends on it.`
        : 'No client or trusted issuer depends on it.'
    } This cannot be undone.`,
    action: environmentPath(environment.id, '/delete'),
    label: 'Delete the environment',
    back: dashboardPaths.environments,
  });
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

async function scopesPage(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const scopes = await listScopes(request.deps.admin);
  const notice = request.query.done ? notices[request.query.done] : undefined;
  return pageResponse(
    request,
    'Scopes',
    html`<table id="scopes"><thead><tr><th>Name</th><th>Description</th><th>In discovery</th><th></th></tr></thead><tbody>${scopes.map(
      (s) => html`<tr><td><code>${s.name}</code></td><td>${s.description}</td><td>${s.discoverable ? 'yes' : 'no'}</td>
<td>${builtInMeaningOf(s.name) ? html`<span class="tag">built in</span>` : html`<a href="${scopePaths.confirmDelete(s.name)}" class="danger">Delete</a>`}</td></tr>`,
    )}</tbody></table>
<fieldset><legend>Create a scope</legend><form method="post" action="${dashboardPaths.scopes}/new">${csrfField(request.admin.csrf)}${formError(state)}
<label for="scope-name">Name</label><input id="scope-name" name="name" type="text" required maxlength="128" value="${fieldValue(state, 'name')}"${describedBy(state, 'name')}>${fieldError(state, 'name')}
<label for="scope-description">Description</label><input id="scope-description" name="description" type="text" maxlength="500" value="${fieldValue(state, 'description')}"${describedBy(state, 'description')}>${fieldError(state, 'description')}
<label><input name="discoverable" type="checkbox"${isTicked(state, 'discoverable', false) ? html` checked` : ''}> Listed in discovery (scopes_supported)</label>${fieldError(state, 'discoverable')}
<div><button type="submit">Create</button></div></form></fieldset>`,
    { notice, status },
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
  const title = `Delete the scope ${name}?`;
  const dependents = await scopeDependents(request.deps.admin, name);
  // Behaviour DASH-16, ADMIN-18: refused while held, so the page names the holders and offers no button.
  if (scopeDeletionBlocked(dependents)) {
    const { clients, trustedIssuers } = dependents;
    return pageResponse(
      request,
      title,
      html`<p class="error" role="alert">This scope cannot be deleted while it is held: remove it from these first.</p><ul id="dependents">${
        clients.count > 0
          ? html`<li id="dependent-clients">${countedAsRead(clients)} client${clients.count > 1 || clients.more ? 's hold' : ' holds'} it:${await namedClients(request, clients)}</li>`
          : ''
      }${
        trustedIssuers.count > 0
          ? html`<li id="dependent-trusted-issuers">The workload rules of ${trustedIssuers.count} trusted issuer${trustedIssuers.count > 1 ? 's give' : ' gives'} it: ${trustedIssuers.sample.map((id) => html`<code>${id}</code> `)}</li>`
          : ''
      }</ul>
<p><a href="${dashboardPaths.scopes}">Back to the scopes</a></p>`,
    );
  }
  return confirmationPage(request, {
    title,
    consequence: html`Deleting <code>${name}</code> removes it from the catalog; ${
      dependents.clients.more
        ? // Behaviour DASH-16: the page's reads ran out before a holder was found; the deletion reads every client and refuses (409) if one holds it.
          html`<span id="dependents-unread">no client was found holding it among the first clients read (the deletion checks them all and is refused if one does), and no trusted issuer gives it.</span>`
        : 'no client or trusted issuer holds it.'
    } Discovery may list it for a few minutes more (its caches).
Tokens already issued with it run out on their own.`,
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
  { method: 'GET', path: 'environments', run: (request) => environmentsPage(request) },
  {
    method: 'POST',
    path: 'environments/new',
    run: createEnvironmentAction,
    refill: {
      fields: ['id', 'name'],
      conflictField: 'id',
      page: (request, state, status) => environmentsPage({ ...request, query: {} }, state, status),
    },
  },
  { method: 'GET', path: 'environments/:id/delete', run: confirmDeleteEnvironment },
  { method: 'POST', path: 'environments/:id/delete', run: deleteEnvironmentAction },
  { method: 'GET', path: 'scopes', run: (request) => scopesPage(request) },
  {
    method: 'POST',
    path: 'scopes/new',
    run: createScopeAction,
    refill: {
      fields: ['name', 'description', 'discoverable'],
      conflictField: 'name',
      page: (request, state, status) => scopesPage({ ...request, query: {} }, state, status),
    },
  },
  { method: 'GET', path: 'scopes/delete', run: confirmDeleteScope },
  { method: 'POST', path: 'scopes/remove', run: deleteScopeAction },
];
