/**
 * Clients in the dashboard (behaviour DASH-6): list (static or dynamic, dynamic ones marked
 * self-registered), create (a confidential client's secret shown once, in the no-store answer to
 * the POST, never again; or its public keys instead, client-keys.ts), edit name, scopes, redirect
 * URIs, keys, the refresh rotation grace window and whether its authorization requests must be
 * pushed (RFC 9126, behaviour AUTHZ-18), delete after a confirmation page;
 * the client's API keys (create, shown once; list with status and last use; revoke). Each action
 * calls the admin API's core function and is audited with the admin as actor.
 */
import * as z from 'zod/mini';
import { createClient, deleteClient, getClient, updateClient } from '../../core/admin/clients';
import { namedDependents } from '../../core/admin/dependents';
import { everyEnvironment } from '../../core/admin/environments';
import { listScopes } from '../../core/admin/scopes';
import type { KeyManager } from '../../core/api-keys/caller';
import { createApiKey } from '../../core/api-keys/create';
import { revokeApiKey, listApiKeys } from '../../core/api-keys/list-and-revoke';
import { keyStatus } from '../../core/api-keys/status';
import { InvalidRequestError } from '../../core/errors';
import type { ApiKey, Client } from '../../core/model';
import { displayName, environmentId, refreshGraceSeconds, scopeName } from '../../http/admin-schemas';
import { html, type Html } from '../html';
import { redirect } from '../../http/redirect';
import { validate } from '../../http/validate';
import { actorOf, confirmationPage, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { clientActivityChart } from './client-activity-chart';
import { authenticationRow, createFormKeyFields, editFormKeyFields, keysOfCreateForm, keysOfEditForm } from './client-keys';
import { defaultEnvironmentOf, scopeCheckboxes, scopesOfForm } from './client-form-fields';
import {
  blankForm,
  blankToUndefined,
  checkbox,
  describedBy,
  fieldError,
  formError,
  type FormState,
  isTicked,
  lineList,
  fieldValue,
} from './forms';
import { actionButton, clientPath, csrfField, dashboardPaths, userPath } from './layout';
import { showOnceAfterRedirect } from './shown-once';

const scopesField = z.array(scopeName).check(z.maxLength(100));
const redirectUrisField = z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(20));

const createForm = z.object({
  type: z.enum(['public', 'confidential']),
  name: displayName,
  environment_id: environmentId,
  scopes: scopesField,
  redirect_uris: redirectUrisField,
  refresh_grace_seconds: z.optional(refreshGraceSeconds),
  require_pushed_authorization_requests: checkbox,
  dpop_bound_access_tokens: checkbox,
});

const updateForm = z.object({
  name: displayName,
  scopes: scopesField,
  redirect_uris: z.optional(redirectUrisField),
  refresh_grace_seconds: z.optional(refreshGraceSeconds),
  require_pushed_authorization_requests: checkbox,
  dpop_bound_access_tokens: checkbox,
});

/** Behaviour REFRESH-7: blank is the server's setting (null); anything else must read as a number. */
const graceWindowField = (value: string | undefined) => (blankToUndefined(value) === undefined ? null : Number(value));

/** Behaviour AUTHZ-18: only a client of the code flow sends authorization requests to push. */
const pushesRequests = (client: Pick<Client, 'grantTypes'>) => client.grantTypes.includes('authorization_code');
const parCheckbox = (checked: boolean) =>
  html`<label><input name="require_pushed_authorization_requests" type="checkbox"${checked ? html` checked` : ''}> Require pushed authorization requests (RFC 9126: /api/par first)</label>`;

/** RFC 9449 5.2, behaviour TOKEN-9: the same words on both forms. */
const dpopBoundField = (checked: boolean) =>
  html`<label><input name="dpop_bound_access_tokens" type="checkbox"${checked ? html` checked` : ''}> Require DPoP: refuse token requests without a DPoP proof (dpop_bound_access_tokens)</label>`;

const keyForm = z.object({
  user: z.string().check(z.trim(), z.minLength(1, 'enter the email or id of the user the key acts as'), z.maxLength(254)),
  name: z.optional(displayName),
  expires_at: z.optional(z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time, e.g. 2030-01-01T00:00:00Z' })),
});

const notices: Record<string, string> = {
  created: 'The client was created.',
  updated: 'The client was saved.',
  deleted: 'The client was deleted; its API keys were revoked.',
  'key-revoked': 'The API key was revoked.',
};

const adminManager = (request: DashboardRequest): KeyManager => ({ kind: 'admin', actor: actorOf(request) });

/** The fields a refused client form shows its problem beside (behaviour DASH-14). */
const clientFormFields = [
  'type',
  'name',
  'environment_id',
  'scopes',
  'redirect_uris',
  'refresh_grace_seconds',
  'require_pushed_authorization_requests',
  'jwks',
  'jwks_uri',
  'token_endpoint_auth_signing_alg',
  'dpop_bound_access_tokens',
];

async function newForm(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const [environments, catalog] = await Promise.all([everyEnvironment(request.deps.admin), listScopes(request.deps.admin)]);
  const environment = fieldValue(state, 'environment_id', defaultEnvironmentOf(environments, request.deps.admin.dcrEnvironmentId));
  const type = fieldValue(state, 'type', 'confidential');
  const option = (value: string, label: string, selected: string) =>
    html`<option value="${value}"${value === selected ? html` selected` : ''}>${label}</option>`;
  return pageResponse(
    request,
    'Create a client',
    html`<form method="post" action="${dashboardPaths.clients}/new">${csrfField(request.admin.csrf)}${formError(state)}
<label for="type">Type</label><select id="type" name="type"${describedBy(state, 'type')}>${option('confidential', 'Confidential (has a secret)', type)}${option('public', 'Public (PKCE, no secret)', type)}</select>${fieldError(state, 'type')}
<label for="name">Name</label><input id="name" name="name" type="text" required maxlength="200" value="${fieldValue(state, 'name')}"${describedBy(state, 'name')}>${fieldError(state, 'name')}
<label for="environment_id">Environment</label><select id="environment_id" name="environment_id"${describedBy(state, 'environment_id')}>${environments.map(
      (e) =>
        option(
          e.id,
          `${e.name} (${e.id})${e.dcr || e.id === request.deps.admin.dcrEnvironmentId ? ', self-registered clients' : ''}`,
          environment,
        ),
    )}</select>${fieldError(state, 'environment_id')}
${scopeCheckboxes(catalog, [], state)}
<label for="redirect_uris">Redirect URIs (one per line; none for a client_credentials client)</label><textarea id="redirect_uris" name="redirect_uris" rows="3"${describedBy(state, 'redirect_uris')}>${fieldValue(state, 'redirect_uris')}</textarea>${fieldError(state, 'redirect_uris')}
<label for="refresh_grace_seconds">Refresh grace window in seconds, 0 to 300, for a client that gets refresh tokens (blank: the server's setting, now ${request.container.config.refreshGraceSeconds}; 0: off)</label><input id="refresh_grace_seconds" name="refresh_grace_seconds" type="number" min="0" max="300" step="1" value="${fieldValue(state, 'refresh_grace_seconds')}"${describedBy(state, 'refresh_grace_seconds')}>${fieldError(state, 'refresh_grace_seconds')}
${parCheckbox(isTicked(state, 'require_pushed_authorization_requests', false))}${fieldError(state, 'require_pushed_authorization_requests')}
${createFormKeyFields(state)}
${dpopBoundField(isTicked(state, 'dpop_bound_access_tokens', false))}${fieldError(state, 'dpop_bound_access_tokens')}
<div><button type="submit">Create</button></div></form>`,
    { status },
  );
}

async function create(request: DashboardRequest) {
  const form = validate(createForm, {
    ...request.form,
    scopes: scopesOfForm(request.form),
    redirect_uris: lineList(request.form.redirect_uris),
    refresh_grace_seconds: graceWindowField(request.form.refresh_grace_seconds),
  });
  const keys = keysOfCreateForm(request.form);
  const { client, secret } = await createClient(request.deps.admin, actorOf(request), {
    type: form.type,
    name: form.name,
    environmentId: form.environment_id,
    scopes: form.scopes,
    redirectUris: form.redirect_uris,
    ...(typeof form.refresh_grace_seconds === 'number' ? { refreshGraceSeconds: form.refresh_grace_seconds } : {}),
    admin: false,
    test: false,
    requirePushedAuthorizationRequests: form.require_pushed_authorization_requests === 'on',
    ...(keys ? { keys } : {}),
    dpopBoundAccessTokens: form.dpop_bound_access_tokens === 'on',
  });
  request.container.log.info('dashboard: client created', { clientId: client.clientId, adminId: request.admin.user.id });
  // Behaviour DASH-13: 303 either way, so a reload never creates a second client; a secret is shown once on the page it leads to.
  if (secret) return showOnceAfterRedirect(request, { purpose: 'client-secret', clientId: client.clientId, secret });
  return redirect(`${clientPath(client.clientId)}?done=created`);
}

function keyRow(request: DashboardRequest, client: Client, key: ApiKey): Html {
  const status = keyStatus(key, request.container.clock.now());
  return html`<tr data-key-id="${key.keyId}"><td><code>${key.keyId}</code></td><td>${key.name ?? ''}</td>
<td><a href="${userPath(key.userId)}">${key.userId}</a></td><td>${key.scopes.join(' ')}</td><td class="status">${status}</td>
<td>${key.lastUsedAt ?? 'never'}</td><td>${key.expiresAt ?? ''}</td>
<td>${status === 'active' ? actionButton(clientPath(client.clientId, `/keys/${encodeURIComponent(key.keyId)}/revoke`), request.admin.csrf, 'Revoke') : ''}</td></tr>`;
}

/** Which of the page's two forms a refusal brings back filled in (behaviour DASH-14). */
interface DetailForms {
  readonly edit?: FormState;
  readonly key?: FormState;
}

async function detailPage(request: DashboardRequest, statusCode = 200, forms: DetailForms = {}) {
  const client = await getClient(request.deps.admin, request.params.id!);
  const edit = forms.edit ?? blankForm;
  const keyState = forms.key ?? blankForm;
  const catalog = await listScopes(request.deps.admin);
  const keyCursor = blankToUndefined(request.query.keys_cursor);
  const keys = await listApiKeys(request.deps.apiKeys, adminManager(request), client.clientId, 50, keyCursor);
  const notice = request.query.done ? notices[request.query.done] : undefined;
  const editsRedirects = client.registrationType === 'static' && client.grantTypes.includes('authorization_code');
  const rotates = client.grantTypes.includes('refresh_token');
  const serverGrace = request.container.config.refreshGraceSeconds;
  return pageResponse(
    request,
    client.name,
    html`<table><tbody><tr><th>Client ID</th><td><code>${client.clientId}</code></td></tr><tr><th>Type</th><td>${client.type}</td></tr>
<tr><th>Registration</th><td>${client.registrationType === 'dynamic' ? html`<span class="tag">self-registered</span>` : 'static'}</td></tr>
<tr><th>Environment</th><td>${client.environmentId}</td></tr><tr><th>Grant types</th><td>${client.grantTypes.join(' ')}</td></tr>
${
  rotates
    ? html`<tr><th>Refresh grace window</th><td id="refresh-grace">${
        client.refreshGraceSeconds === undefined ? `the server's, ${serverGrace} s` : `${client.refreshGraceSeconds} s`
      }</td></tr>`
    : ''
}
${pushesRequests(client) ? html`<tr><th>Pushed authorization requests</th><td id="par-required">${client.requirePushedAuthorizationRequests ? 'required' : 'not required'}</td></tr>` : ''}
${authenticationRow(client)}
<tr><th>DPoP required</th><td>${client.dpopBoundAccessTokens ? 'yes' : 'no'}</td></tr>
<tr><th>Created</th><td>${client.createdAt}</td></tr></tbody></table>
${await clientActivityChart(request, client.clientId)}
<p><a href="${clientPath(client.clientId, '/activity')}">Token activity</a>${client.secretHash ? html` · <a href="${clientPath(client.clientId, '/secret')}">Rotate secret</a>` : ''} · <a href="${clientPath(client.clientId, '/delete')}" class="danger">Delete this client</a></p>
<fieldset><legend>Edit</legend><form method="post" action="${clientPath(client.clientId)}">${csrfField(request.admin.csrf)}${formError(edit)}
<label for="name">Name</label><input id="name" name="name" type="text" value="${fieldValue(edit, 'name', client.name)}" required maxlength="200"${describedBy(edit, 'name')}>${fieldError(edit, 'name')}
${scopeCheckboxes(catalog, client.scopes, edit)}
${
  editsRedirects
    ? html`<label for="redirect_uris">Redirect URIs (one per line)</label><textarea id="redirect_uris" name="redirect_uris" rows="3"${describedBy(edit, 'redirect_uris')}>${fieldValue(edit, 'redirect_uris', client.redirectUris.join('\n'))}</textarea>${fieldError(edit, 'redirect_uris')}`
    : html`<p>Redirect URIs: ${client.redirectUris.length > 0 ? client.redirectUris.join(', ') : 'none'}${client.registrationType === 'dynamic' ? " (set by the client's registration)" : ''}</p>`
}
${
  rotates
    ? html`<label for="refresh_grace_seconds">Refresh grace window in seconds, 0 to 300: a rotated refresh token presented again within it gets the same successor (blank: the server's setting, now ${serverGrace}; 0: off)</label><input id="refresh_grace_seconds" name="refresh_grace_seconds" type="number" min="0" max="300" step="1" value="${fieldValue(edit, 'refresh_grace_seconds', client.refreshGraceSeconds === undefined ? '' : String(client.refreshGraceSeconds))}"${describedBy(edit, 'refresh_grace_seconds')}>${fieldError(edit, 'refresh_grace_seconds')}`
    : ''
}
${pushesRequests(client) ? parCheckbox(isTicked(edit, 'require_pushed_authorization_requests', client.requirePushedAuthorizationRequests === true)) : ''}${fieldError(edit, 'require_pushed_authorization_requests')}
${editFormKeyFields(client, edit)}
${dpopBoundField(isTicked(edit, 'dpop_bound_access_tokens', client.dpopBoundAccessTokens === true))}${fieldError(edit, 'dpop_bound_access_tokens')}
<div><button type="submit">Save</button></div></form></fieldset>
<h2>API keys</h2>
<table id="api-keys"><thead><tr><th>Key ID</th><th>Name</th><th>User</th><th>Scopes</th><th>Status</th><th>Last used</th><th>Expires</th><th></th></tr></thead>
<tbody>${keys.items.map((key) => keyRow(request, client, key))}</tbody></table>
<p><a href="${clientPath(client.clientId, '/api-keys')}">All keys, newest first, by status</a></p>
<fieldset><legend>Create an API key</legend><form method="post" action="${clientPath(client.clientId, '/keys')}">${csrfField(request.admin.csrf)}${formError(keyState)}
<label for="key-user">User the key acts as (email or user id)</label><input id="key-user" name="user" type="text" required value="${fieldValue(keyState, 'user')}"${describedBy(keyState, 'user')}>${fieldError(keyState, 'user')}
<label for="key-name">Name (optional)</label><input id="key-name" name="name" type="text" maxlength="200" value="${fieldValue(keyState, 'name')}"${describedBy(keyState, 'name')}>${fieldError(keyState, 'name')}
<label for="key-expires">Expires at (optional, e.g. 2030-01-01T00:00:00Z)</label><input id="key-expires" name="expires_at" type="text" value="${fieldValue(keyState, 'expires_at')}"${describedBy(keyState, 'expires_at')}>${fieldError(keyState, 'expires_at')}
<div><button type="submit">Create key</button></div></form></fieldset>`,
    { notice, status: statusCode },
  );
}

async function update(request: DashboardRequest) {
  const before = await getClient(request.deps.admin, request.params.id!);
  const editsRedirects = before.registrationType === 'static' && before.grantTypes.includes('authorization_code');
  const form = validate(updateForm, {
    name: request.form.name,
    scopes: scopesOfForm(request.form),
    ...(editsRedirects && request.form.redirect_uris !== undefined ? { redirect_uris: lineList(request.form.redirect_uris) } : {}),
    ...(before.grantTypes.includes('refresh_token') && request.form.refresh_grace_seconds !== undefined
      ? { refresh_grace_seconds: graceWindowField(request.form.refresh_grace_seconds) }
      : {}),
    require_pushed_authorization_requests: request.form.require_pushed_authorization_requests,
    dpop_bound_access_tokens: request.form.dpop_bound_access_tokens,
  });
  const keys = keysOfEditForm(before, request.form);
  const after = await updateClient(request.deps.admin, actorOf(request), {
    clientId: before.clientId,
    name: form.name,
    scopes: form.scopes,
    ...(form.redirect_uris ? { redirectUris: form.redirect_uris } : {}),
    ...(form.refresh_grace_seconds !== undefined ? { refreshGraceSeconds: form.refresh_grace_seconds } : {}),
    // An unticked box is absent from the form: the form shows it to code-flow clients only.
    ...(pushesRequests(before) ? { requirePushedAuthorizationRequests: form.require_pushed_authorization_requests === 'on' } : {}),
    ...(keys ? { keys } : {}),
    // The form always shows the box, so an unticked one turns the requirement off; unchanged, it is not written (nor audited).
    ...((form.dpop_bound_access_tokens === 'on') !== (before.dpopBoundAccessTokens === true)
      ? { dpopBoundAccessTokens: form.dpop_bound_access_tokens === 'on' }
      : {}),
  });
  return redirect(`${clientPath(after.clientId)}?done=updated`);
}

/**
 * Behaviour DASH-16: the client's active API keys, counted up to one past the number a page names
 * and in the admin API's bounded pages (filtered-pages.ts), never every page of them: `more` when
 * the count stopped early.
 */
async function activeKeyCount(request: DashboardRequest, clientId: string): Promise<{ count: number; more: boolean }> {
  const page = await listApiKeys(request.deps.apiKeys, adminManager(request), clientId, namedDependents + 1, undefined, 'active');
  return { count: page.items.length, more: page.next !== undefined };
}

function activeKeys({ count, more }: { count: number; more: boolean }): string {
  if (count > namedDependents) return `more than ${namedDependents} active API keys`;
  if (more) return `${count} or more active API keys`;
  return count === 0 ? 'it has no active API key' : `${count} active API key${count > 1 ? 's' : ''}`;
}

async function confirmDelete(request: DashboardRequest) {
  const client = await getClient(request.deps.admin, request.params.id!);
  const keys = await activeKeyCount(request, client.clientId);
  return confirmationPage(request, {
    title: `Delete ${client.name}?`,
    consequence: html`Deleting <code>${client.clientId}</code> stops every token of it at once and revokes its API keys: <strong id="dependent-keys">${activeKeys(
      keys,
    )}</strong>${keys.count > 0 || keys.more ? ' will stop working' : ''}. This cannot be undone.`,
    action: clientPath(client.clientId, '/delete'),
    label: 'Delete the client',
    back: clientPath(client.clientId),
  });
}

async function remove(request: DashboardRequest) {
  const clientId = request.params.id!;
  await deleteClient(request.deps.admin, actorOf(request), clientId);
  return redirect(`${dashboardPaths.clients}?done=deleted`);
}

async function createKey(request: DashboardRequest) {
  const form = validate(keyForm, {
    user: request.form.user,
    ...(blankToUndefined(request.form.name) ? { name: request.form.name } : {}),
    ...(blankToUndefined(request.form.expires_at) ? { expires_at: request.form.expires_at!.trim() } : {}),
  });
  const user = form.user.includes('@')
    ? await request.deps.admin.users.findByEmail(form.user.toLowerCase())
    : await request.deps.admin.users.get(form.user);
  if (!user) throw new InvalidRequestError('user: no user with that email or id.');
  // The audit entry (api_key.create, the admin as actor) is written in the key's own transaction.
  const created = await createApiKey(request.deps.apiKeys, adminManager(request), {
    clientId: request.params.id!,
    userId: user.id,
    ...(form.name ? { name: form.name } : {}),
    ...(form.expires_at ? { expiresAt: form.expires_at } : {}),
  });
  return showOnceAfterRedirect(request, {
    purpose: 'api-key',
    clientId: request.params.id!,
    secret: created.apiKey,
    keyId: created.key.keyId,
  });
}

async function revokeKey(request: DashboardRequest) {
  // Audited (api_key.revoke) in the revocation's own transaction.
  await revokeApiKey(request.deps.apiKeys, adminManager(request), { clientId: request.params.id!, keyId: request.params.keyId! });
  return redirect(`${clientPath(request.params.id!)}?done=key-revoked`);
}

export const clientRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'clients/new', run: (request) => newForm(request) },
  { method: 'POST', path: 'clients/new', run: create, refill: { fields: clientFormFields, page: newForm } },
  { method: 'GET', path: 'clients/:id', run: (request) => detailPage(request) },
  {
    method: 'POST',
    path: 'clients/:id',
    run: update,
    refill: { fields: clientFormFields, page: (request, edit, status) => detailPage({ ...request, query: {} }, status, { edit }) },
  },
  { method: 'GET', path: 'clients/:id/delete', run: confirmDelete },
  { method: 'POST', path: 'clients/:id/delete', run: remove },
  {
    method: 'POST',
    path: 'clients/:id/keys',
    run: createKey,
    refill: {
      fields: ['user', 'name', 'expires_at'],
      page: (request, key, status) => detailPage({ ...request, query: {} }, status, { key }),
    },
  },
  { method: 'POST', path: 'clients/:id/keys/:keyId/revoke', run: revokeKey },
];
