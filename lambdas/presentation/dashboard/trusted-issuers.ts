/**
 * Trusted issuers in the dashboard (behaviour DASH-6, TRUST-1..TRUST-8): the list with the create
 * form, a detail page with its edit form, deletion after a confirmation page. The same body
 * schemas and use cases as /api/admin/trusted-issuers; key sets and rules are JSON in a textarea
 * (the pages carry no script). Audited with the admin as actor.
 */
import { everyEnvironment } from '../../core/admin/environments';
import {
  createTrustedIssuer,
  deleteTrustedIssuer,
  getTrustedIssuer,
  listTrustedIssuers,
  updateTrustedIssuer,
} from '../../core/admin/trusted-issuers';
import { InvalidRequestError } from '../../core/errors';
import type { TrustedIssuer } from '../../core/trusted-issuers/model';
import { redirect } from '../../http/redirect';
import { createTrustedIssuerBody, trustedIssuerSettingsOf, updateTrustedIssuerBody } from '../../http/trusted-issuer-schemas';
import { validate } from '../../http/validate';
import { type Html, html } from '../html';
import { actorOf, confirmationPage, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { blankForm, blankToUndefined, describedBy, fieldError, fieldValue, formError, type FormState, isTicked } from './forms';
import { csrfField, dashboardPaths, nextPageLink } from './layout';

const issuerPath = (id: string, rest = '') => `${dashboardPaths.trustedIssuers}/${encodeURIComponent(id)}${rest}`;

const notices: Record<string, string> = {
  created: 'The issuer is trusted.',
  updated: 'Saved. Containers that read the old settings use them for up to 30 seconds more.',
  deleted: 'The issuer is no longer trusted (by every container within 30 seconds).',
};

/** A textarea of JSON: absent when blank, else parsed (the schema then checks its shape). */
function jsonField(name: string, value: string | undefined): unknown {
  const text = blankToUndefined(value);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError(`${name}: must be JSON.`);
  }
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** The fields both forms share, by the admin API's wire names; a profile's own fields only for that profile. */
function settingsFields(request: DashboardRequest, profile: string | undefined) {
  const form = request.form;
  return {
    ...(blankToUndefined(form.jwks) ? { jwks: jsonField('jwks', form.jwks) } : {}),
    ...(blankToUndefined(form.jwks_uri) ? { jwks_uri: form.jwks_uri!.trim() } : {}),
    ...(profile === 'id-jag'
      ? {
          user_claim: form.user_claim ?? 'sub',
          create_users: form.create_users === 'on',
          allow_refresh_tokens: form.allow_refresh_tokens === 'on',
        }
      : {}),
    ...(profile === 'workload' && blankToUndefined(form.rules) ? { rules: jsonField('rules', form.rules) } : {}),
  };
}

/** The key and profile fields, as stored or, after a refusal, as posted (behaviour DASH-14). */
function keysAndOptions(state: FormState, trusted?: TrustedIssuer): Html {
  const idJag = !trusted || trusted.profile === 'id-jag';
  const workload = !trusted || trusted.profile === 'workload';
  const userClaim = fieldValue(state, 'user_claim', trusted?.userClaim ?? 'sub');
  return html`<label for="ti-jwks">Public keys: a JSON Web Key Set (<code>{"keys": [...]}</code>, each key with its kid)</label>
<textarea id="ti-jwks" name="jwks" rows="6"${describedBy(state, 'jwks')}>${fieldValue(state, 'jwks', trusted?.jwks ? pretty(trusted.jwks) : '')}</textarea>${fieldError(state, 'jwks')}
<label for="ti-jwks-uri">or the URL of the issuer's key set (https)</label><input id="ti-jwks-uri" name="jwks_uri" type="text" maxlength="2000" value="${fieldValue(state, 'jwks_uri', trusted?.jwksUri ?? '')}"${describedBy(state, 'jwks_uri')}>${fieldError(state, 'jwks_uri')}
${
  idJag
    ? html`<fieldset><legend>id-jag: a user's identity assertion</legend>
<label for="ti-user-claim">The claim that names the user</label><select id="ti-user-claim" name="user_claim">
<option value="sub"${userClaim === 'email' ? '' : html` selected`}>sub</option><option value="email"${userClaim === 'email' ? html` selected` : ''}>email</option></select>${fieldError(state, 'user_claim')}
<label><input name="create_users" type="checkbox"${isTicked(state, 'create_users', trusted?.createUsers === true) ? html` checked` : ''}> Create an unknown user on first use</label>
<label><input name="allow_refresh_tokens" type="checkbox"${isTicked(state, 'allow_refresh_tokens', trusted?.allowRefreshTokens === true) ? html` checked` : ''}> Issue refresh tokens</label></fieldset>`
    : ''
}
${
  workload
    ? html`<fieldset><legend>workload: rules (JSON), tried in order</legend>
<label for="ti-rules">Rules: <code>[{"subject": "repo:acme/*:ref:refs/heads/main", "claims": {"environment": "production"}, "scopes": ["deploy"], "resources": ["https://mcp.example.com/"]}]</code>;
<code>*</code> is one or more characters but <code>/</code>, <code>**</code> any</label>
<textarea id="ti-rules" name="rules" rows="6"${describedBy(state, 'rules')}>${fieldValue(state, 'rules', trusted?.rules ? pretty(trusted.rules) : '')}</textarea>${fieldError(state, 'rules')}</fieldset>`
    : ''
}`;
}

/** The fields a refused issuer form shows its problem beside (behaviour DASH-14). */
const issuerFormFields = ['issuer', 'profile', 'environment_id', 'description', 'jwks', 'jwks_uri', 'user_claim', 'rules'];

async function listPage(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const [page, environments] = await Promise.all([
    listTrustedIssuers(request.deps.admin, 50, blankToUndefined(request.query.cursor)),
    everyEnvironment(request.deps.admin),
  ]);
  const notice = request.query.done ? notices[request.query.done] : undefined;
  return pageResponse(
    request,
    'Trusted issuers',
    html`<p>Issuers whose JWTs the JWT-bearer grant accepts: an enterprise IdP's identity assertions (id-jag) or a workload platform's tokens (workload).</p>
<table id="trusted-issuers"><thead><tr><th>Issuer</th><th>Profile</th><th>Environment</th><th>Keys</th><th>Created</th></tr></thead><tbody>${page.items.map(
      (t) => html`<tr><td><a href="${issuerPath(t.trustedIssuerId)}">${t.issuer}</a>${t.description ? html`<br>${t.description}` : ''}</td>
<td>${t.profile}</td><td><code>${t.environmentId}</code></td><td>${t.jwks ? `${t.jwks.keys.length} key${t.jwks.keys.length === 1 ? '' : 's'}` : t.jwksUri}</td><td>${t.createdAt}</td></tr>`,
    )}</tbody></table>${nextPageLink(dashboardPaths.trustedIssuers, {}, page.next)}
<fieldset><legend>Trust an issuer</legend><form method="post" action="${dashboardPaths.trustedIssuers}/new">${csrfField(request.admin.csrf)}${formError(state)}
<label for="ti-issuer">Issuer (the tokens' iss: an https URL)</label><input id="ti-issuer" name="issuer" type="text" required maxlength="2000" value="${fieldValue(state, 'issuer')}"${describedBy(state, 'issuer')}>${fieldError(state, 'issuer')}
<label for="ti-profile">Profile</label><select id="ti-profile" name="profile"><option value="id-jag">id-jag: enterprise identity assertions for users</option><option value="workload"${fieldValue(state, 'profile') === 'workload' ? html` selected` : ''}>workload: workload identity tokens</option></select>${fieldError(state, 'profile')}
<label for="ti-environment">Environment</label><input id="ti-environment" name="environment_id" type="text" required maxlength="64" list="ti-environments" value="${fieldValue(state, 'environment_id')}"${describedBy(state, 'environment_id')}>${fieldError(state, 'environment_id')}
<datalist id="ti-environments">${environments.map((e) => html`<option value="${e.id}">${e.name}</option>`)}</datalist>
<label for="ti-description">Description (optional)</label><input id="ti-description" name="description" type="text" maxlength="500" value="${fieldValue(state, 'description')}"${describedBy(state, 'description')}>${fieldError(state, 'description')}
${keysAndOptions(state)}
<div><button type="submit">Trust the issuer</button></div></form></fieldset>`,
    { notice, status },
  );
}

async function createAction(request: DashboardRequest) {
  const profile = request.form.profile;
  const body = validate(createTrustedIssuerBody, {
    issuer: request.form.issuer?.trim(),
    profile,
    environment_id: request.form.environment_id?.trim(),
    ...(blankToUndefined(request.form.description) ? { description: request.form.description } : {}),
    ...settingsFields(request, profile),
  });
  const { issuer, profile: chosen, environment_id: environmentId, ...settings } = body;
  const trusted = await createTrustedIssuer(request.deps.admin, actorOf(request), {
    issuer,
    profile: chosen,
    environmentId,
    ...trustedIssuerSettingsOf(settings),
  });
  return redirect(`${issuerPath(trusted.trustedIssuerId)}?done=created`);
}

async function detailPage(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const trusted = await getTrustedIssuer(request.deps.admin, request.params.id!);
  const notice = request.query.done ? notices[request.query.done] : undefined;
  return pageResponse(
    request,
    trusted.issuer,
    html`<table id="trusted-issuer"><tbody><tr><th>ID</th><td><code>${trusted.trustedIssuerId}</code></td></tr>
<tr><th>Issuer</th><td><code>${trusted.issuer}</code></td></tr><tr><th>Profile</th><td>${trusted.profile}</td></tr>
<tr><th>Environment</th><td><code>${trusted.environmentId}</code></td></tr><tr><th>Created</th><td>${trusted.createdAt}</td></tr>
<tr><th>Updated</th><td>${trusted.updatedAt ?? ''}</td></tr></tbody></table>
<p><a href="${issuerPath(trusted.trustedIssuerId, '/delete')}" class="danger">Delete this trusted issuer</a></p>
<fieldset><legend>Edit</legend><form method="post" action="${issuerPath(trusted.trustedIssuerId)}">${csrfField(request.admin.csrf)}${formError(state)}
<label for="ti-description">Description</label><input id="ti-description" name="description" type="text" maxlength="500" value="${fieldValue(state, 'description', trusted.description ?? '')}"${describedBy(state, 'description')}>${fieldError(state, 'description')}
${keysAndOptions(state, trusted)}
<div><button type="submit">Save</button></div></form></fieldset>`,
    { notice, status },
  );
}

async function updateAction(request: DashboardRequest) {
  const current = await getTrustedIssuer(request.deps.admin, request.params.id!);
  const body = validate(updateTrustedIssuerBody, {
    description: blankToUndefined(request.form.description) ?? null,
    ...settingsFields(request, current.profile),
  });
  await updateTrustedIssuer(request.deps.admin, actorOf(request), current.trustedIssuerId, trustedIssuerSettingsOf(body));
  return redirect(`${issuerPath(current.trustedIssuerId)}?done=updated`);
}

async function confirmDelete(request: DashboardRequest) {
  const trusted = await getTrustedIssuer(request.deps.admin, request.params.id!);
  return confirmationPage(request, {
    title: `Stop trusting ${trusted.issuer}?`,
    consequence: html`The JWT-bearer grant refuses <code>${trusted.issuer}</code>'s ${trusted.profile} tokens in environment <code>${trusted.environmentId}</code>
within 30 seconds, in every container. Tokens already issued run out on their own.`,
    action: issuerPath(trusted.trustedIssuerId, '/delete'),
    label: 'Delete the trusted issuer',
    back: issuerPath(trusted.trustedIssuerId),
  });
}

async function deleteAction(request: DashboardRequest) {
  await deleteTrustedIssuer(request.deps.admin, actorOf(request), request.params.id!);
  return redirect(`${dashboardPaths.trustedIssuers}?done=deleted`);
}

export const trustedIssuerRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'trusted-issuers', run: (request) => listPage(request) },
  {
    method: 'POST',
    path: 'trusted-issuers/new',
    run: createAction,
    refill: {
      fields: issuerFormFields,
      conflictField: 'issuer',
      page: (request, state, status) => listPage({ ...request, query: {} }, state, status),
    },
  },
  { method: 'GET', path: 'trusted-issuers/:id', run: (request) => detailPage(request) },
  {
    method: 'POST',
    path: 'trusted-issuers/:id',
    run: updateAction,
    refill: { fields: issuerFormFields, page: (request, state, status) => detailPage({ ...request, query: {} }, state, status) },
  },
  { method: 'GET', path: 'trusted-issuers/:id/delete', run: confirmDelete },
  { method: 'POST', path: 'trusted-issuers/:id/delete', run: deleteAction },
];
