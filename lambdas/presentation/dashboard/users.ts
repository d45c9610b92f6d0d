/**
 * Users in the dashboard (behaviour DASH-6): list, create, edit, delete after a confirmation page,
 * environment grants, email-verified status, passkeys (remove), sign out everywhere (ASVS 7.4.5),
 * and a mailed password-reset link (the admin never sets or sees the password that way). Each
 * action calls the admin API's core function and is audited with the admin as actor.
 */
import * as z from 'zod/mini';
import { grantEnvironment, everyEnvironment, listUserEnvironments, revokeEnvironment } from '../../core/admin/environments';
import { removeUserPasskey, sendPasswordResetLink, signOutEverywhere } from '../../core/admin/user-credentials';
import { createUser, deleteUser, getUser, updateUser } from '../../core/admin/users';
import { ConflictRequestError } from '../../core/errors';
import { displayName, emailAddress, environmentId, password } from '../../http/admin-schemas';
import { html } from '../html';
import { passkeyRemoveForm } from '../../http/passkey-forms';
import { redirect } from '../../http/redirect';
import { validate } from '../../http/validate';
import { actorOf, confirmationPage, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { blankForm, blankToUndefined, checkbox, describedBy, fieldError, formError, type FormState, isTicked, fieldValue } from './forms';
import { actionButton, csrfField, dashboardPaths, userPath } from './layout';
import { userKeysSection } from './user-keys';

const userForm = z.object({ name: displayName, email: z.optional(emailAddress), admin: checkbox });
const newUserForm = z.object({ name: displayName, email: z.optional(emailAddress), password: z.optional(password), admin: checkbox });
const grantForm = z.object({ environment_id: environmentId });
/** The fields a refused user form shows its problem beside (behaviour DASH-14). */
const userFormFields = ['name', 'email', 'password', 'admin'];

const notices: Record<string, string> = {
  created: 'The user was created.',
  updated: 'The user was saved.',
  deleted: 'The user was deleted, with their sessions, tokens, keys and passkeys.',
  granted: 'The environment was granted.',
  revoked: 'The environment grant was removed.',
  'passkey-removed': 'The passkey was removed; the user was told by mail.',
  'signed-out': 'Every session of the user was ended and their refresh tokens revoked.',
  'reset-sent': 'A password-reset link was mailed to the user.',
};

const noticeOf = (request: DashboardRequest) => (request.query.done ? notices[request.query.done] : undefined);

/** Form text fields: an empty input means "not given". */
const present = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => blankToUndefined(value) !== undefined));

async function newForm(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  return pageResponse(
    request,
    'Create a user',
    html`<form method="post" action="${dashboardPaths.users}/new">${csrfField(request.admin.csrf)}${formError(state)}
<label for="name">Name</label><input id="name" name="name" type="text" required maxlength="200" value="${fieldValue(state, 'name')}"${describedBy(state, 'name')}>${fieldError(state, 'name')}
<label for="email">Email (optional)</label><input id="email" name="email" type="email" maxlength="254" value="${fieldValue(state, 'email')}"${describedBy(state, 'email')}>${fieldError(state, 'email')}
<label for="password">Password (optional, at least 8 characters; or send a reset link later)</label><input id="password" name="password" type="password" autocomplete="new-password"${describedBy(state, 'password')}>${fieldError(state, 'password')}
<label><input name="admin" type="checkbox"${isTicked(state, 'admin', false) ? html` checked` : ''}> Administrator</label>
<div><button type="submit">Create</button></div></form>`,
    { status },
  );
}

async function create(request: DashboardRequest) {
  const form = validate(newUserForm, present(request.form));
  const user = await createUser(request.deps.admin, actorOf(request), {
    name: form.name,
    ...(form.email ? { email: form.email } : {}),
    ...(form.password ? { password: form.password } : {}),
    admin: form.admin === 'on',
    test: false,
  });
  return redirect(`${userPath(user.id)}?done=created`);
}

async function detailPage(request: DashboardRequest, status = 200, edit: FormState = blankForm) {
  const user = await getUser(request.deps.admin, request.params.id!);
  const [grants, environments, passkeys, keys] = await Promise.all([
    listUserEnvironments(request.deps.admin, user.id),
    everyEnvironment(request.deps.admin),
    request.deps.admin.passkeys.listOf(user.id),
    userKeysSection(request, user.id),
  ]);
  const granted = new Set(grants.map((g) => g.environment.id));
  const grantable = environments.filter((e) => !granted.has(e.id));
  const notice = noticeOf(request);
  const csrf = request.admin.csrf;
  return pageResponse(
    request,
    user.name,
    html`<table><tbody><tr><th>User ID</th><td><code>${user.id}</code></td></tr>
<tr><th>Email</th><td>${user.email ?? 'none'} ${user.email ? html`<span class="tag">${user.emailVerifiedAt ? 'verified' : 'not verified'}</span>` : ''}</td></tr>
<tr><th>Password</th><td>${user.passwordHash ? 'set' : 'not set'}</td></tr><tr><th>Created</th><td>${user.createdAt}</td></tr></tbody></table>
<fieldset><legend>Edit</legend><form method="post" action="${userPath(user.id)}">${csrfField(csrf)}${formError(edit)}
<label for="name">Name</label><input id="name" name="name" type="text" value="${fieldValue(edit, 'name', user.name)}" required maxlength="200"${describedBy(edit, 'name')}>${fieldError(edit, 'name')}
<label for="email">Email (a new address is not verified)</label><input id="email" name="email" type="email" value="${fieldValue(edit, 'email', user.email ?? '')}"${describedBy(edit, 'email')}>${fieldError(edit, 'email')}
<label><input name="admin" type="checkbox"${isTicked(edit, 'admin', user.admin) ? html` checked` : ''}> Administrator</label>${fieldError(edit, 'admin')}
<div><button type="submit">Save</button></div></form></fieldset>
<h2>Environments</h2>
<table id="grants"><thead><tr><th>Environment</th><th>Granted</th><th></th></tr></thead><tbody>${grants.map(
      (g) => html`<tr><td>${g.environment.name} (${g.environment.id})</td><td>${g.grantedAt}</td>
<td>${actionButton(userPath(user.id, `/environments/${encodeURIComponent(g.environment.id)}/revoke`), csrf, 'Remove')}</td></tr>`,
    )}</tbody></table>
${
  // Behaviour DASH-17: no empty select when nothing is left to grant.
  grantable.length === 0
    ? html`<p id="all-granted">Every environment is already granted.</p>`
    : html`<form method="post" action="${userPath(user.id, '/environments')}">${csrfField(csrf)}<label for="environment_id">Grant an environment</label>
<select id="environment_id" name="environment_id">${grantable.map((e) => html`<option value="${e.id}">${e.name} (${e.id})</option>`)}</select> <button type="submit">Grant</button></form>`
}
<h2>Passkeys</h2>
<table id="passkeys"><thead><tr><th>Credential</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>${passkeys.map(
      (p) => html`<tr><td><code>${p.credentialId.slice(0, 16)}…</code></td><td>${p.createdAt}</td><td>${p.lastUsedAt ?? 'never'}</td>
<td>${actionButton(userPath(user.id, '/passkeys/remove'), csrf, 'Remove', { credential_id: p.credentialId })}</td></tr>`,
    )}</tbody></table>${passkeys.length === 0 ? html`<p>No passkeys.</p>` : ''}
${keys}
<h2>Sign-in</h2>
<div class="actions">${actionButton(userPath(user.id, '/sign-out-everywhere'), csrf, 'Sign out everywhere')}
${user.email ? actionButton(userPath(user.id, '/password-reset'), csrf, 'Send a password-reset link') : ''}</div>
<p><a href="${userPath(user.id, '/delete')}" class="danger">Delete this user</a></p>`,
    { notice, status },
  );
}

/** The dashboard never locks out the admin using it; another admin (or the admin API) can. */
function refuseSelf(request: DashboardRequest, userId: string, what: string, field?: string): void {
  if (userId === request.admin.user.id) {
    throw new ConflictRequestError(`${field ? `${field}: you` : 'You'} cannot ${what} here; another administrator can.`);
  }
}

async function update(request: DashboardRequest) {
  const before = await getUser(request.deps.admin, request.params.id!);
  const form = validate(userForm, present(request.form));
  if (form.admin !== 'on') refuseSelf(request, before.id, 'remove your own administrator role', 'admin');
  const after = await updateUser(request.deps.admin, actorOf(request), {
    userId: before.id,
    name: form.name,
    ...(form.email ? { email: form.email } : {}),
    admin: form.admin === 'on',
  });
  return redirect(`${userPath(after.id)}?done=updated`);
}

async function confirmDelete(request: DashboardRequest) {
  const user = await getUser(request.deps.admin, request.params.id!);
  const passkeys = await request.deps.admin.passkeys.listOf(user.id);
  // Behaviour DASH-16: what goes with the user, named before the button.
  return confirmationPage(request, {
    title: `Delete ${user.name}?`,
    consequence: html`Deleting <code>${user.id}</code> ends their sessions, revokes their tokens, and deletes with them
<strong id="dependent-credentials">every API key acting as them and ${passkeys.length === 0 ? 'no passkey (they have none)' : `their ${passkeys.length} passkey${passkeys.length > 1 ? 's' : ''}`}</strong>${
      user.admin ? html`; they are an <strong>administrator</strong>` : ''
    }. This cannot be undone.`,
    action: userPath(user.id, '/delete'),
    label: 'Delete the user',
    back: userPath(user.id),
  });
}

async function remove(request: DashboardRequest) {
  const userId = request.params.id!;
  refuseSelf(request, userId, 'delete your own account');
  await deleteUser(request.deps.admin, actorOf(request), userId);
  return redirect(`${dashboardPaths.users}?done=deleted`);
}

async function grant(request: DashboardRequest) {
  const form = validate(grantForm, request.form);
  await grantEnvironment(request.deps.admin, actorOf(request), { userId: request.params.id!, environmentId: form.environment_id });
  return redirect(`${userPath(request.params.id!)}?done=granted`);
}

async function revokeGrant(request: DashboardRequest) {
  const environment = validate(environmentId, request.params.environmentId);
  await revokeEnvironment(request.deps.admin, actorOf(request), { userId: request.params.id!, environmentId: environment });
  return redirect(`${userPath(request.params.id!)}?done=revoked`);
}

async function removePasskeyAction(request: DashboardRequest) {
  const form = validate(passkeyRemoveForm, request.form);
  const userId = request.params.id!;
  await removeUserPasskey({ ...request.deps.admin, passkeyRemoval: request.deps.passkeys() }, actorOf(request), {
    userId,
    credentialId: form.credential_id,
  });
  return redirect(`${userPath(userId)}?done=passkey-removed`);
}

async function signOut(request: DashboardRequest) {
  const user = await signOutEverywhere(request.deps.admin, actorOf(request), request.params.id!);
  return redirect(`${userPath(user.id)}?done=signed-out`);
}

async function sendReset(request: DashboardRequest) {
  const { user } = await sendPasswordResetLink(
    { ...request.deps.admin, passwordReset: request.deps.passwordReset() },
    actorOf(request),
    request.params.id!,
  );
  return redirect(`${userPath(user.id)}?done=reset-sent`);
}

export const userRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'users/new', run: (request) => newForm(request) },
  { method: 'POST', path: 'users/new', run: create, refill: { fields: userFormFields, conflictField: 'email', page: newForm } },
  { method: 'GET', path: 'users/:id', run: (request) => detailPage(request) },
  {
    method: 'POST',
    path: 'users/:id',
    run: update,
    refill: {
      fields: userFormFields,
      conflictField: 'email',
      page: (request, edit, status) => detailPage({ ...request, query: {} }, status, edit),
    },
  },
  { method: 'GET', path: 'users/:id/delete', run: confirmDelete },
  { method: 'POST', path: 'users/:id/delete', run: remove },
  { method: 'POST', path: 'users/:id/environments', run: grant },
  { method: 'POST', path: 'users/:id/environments/:environmentId/revoke', run: revokeGrant },
  { method: 'POST', path: 'users/:id/passkeys/remove', run: removePasskeyAction },
  { method: 'POST', path: 'users/:id/sign-out-everywhere', run: signOut },
  { method: 'POST', path: 'users/:id/password-reset', run: sendReset },
];
