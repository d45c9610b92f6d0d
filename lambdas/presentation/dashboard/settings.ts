/**
 * Site settings in the dashboard (behaviour DASH-6, SITE-1..SITE-4): the title, the MFA policy
 * (or MFA_POLICY's default) and the logo (upload as multipart/form-data, delete). The same core
 * functions as GET/PATCH /api/admin/settings and PUT/DELETE /api/admin/site-logo, which write the
 * audit entry (`site.*`, the admin as actor) in the settings' own transaction.
 */
import { mfaPolicies } from '../../config/settings';
import { InvalidRequestError } from '../../core/errors';
import { maxLogoBytes, removeLogo, replaceLogo } from '../../core/site/logo';
import { getSiteSettings, logoContentTypes, parseSiteSettingsChanges, updateSiteSettings } from '../../core/site/settings';
import { html } from '../html';
import { redirect } from '../../http/redirect';
import { logoUrl } from '../site-views';
import { actorOf, type DashboardRequest, type DashboardRoute, pageResponse } from './context';
import { actionButton, csrfField, dashboardPaths } from './layout';
import { blankForm, describedBy, fieldError, fieldValue, formError, type FormState } from './forms';

const notices: Record<string, string> = {
  saved: 'The settings were saved.',
  'logo-updated': 'The logo was uploaded.',
  'logo-removed': 'The logo was removed.',
};

const policyLabels: Record<(typeof mfaPolicies)[number], string> = {
  off: 'off: a password is enough',
  admins: 'admins: administrators also enter a mailed code',
  everyone: 'everyone: every user also enters a mailed code',
};

async function settingsPage(request: DashboardRequest, state: FormState = blankForm, status = 200) {
  const settings = await getSiteSettings(request.deps.site());
  const notice = request.query.done ? notices[request.query.done] : undefined;
  const csrf = request.admin.csrf;
  const stored = fieldValue(state, 'mfa_policy', settings.mfaPolicySource === 'setting' ? settings.mfaPolicy : '');
  return pageResponse(
    request,
    'Settings',
    html`<fieldset><legend>Site</legend><form method="post" action="${dashboardPaths.settings}">${csrfField(csrf)}${formError(state)}
<label for="title">Title (shown on the sign-in, consent, reset and dashboard pages and in mails)</label>
<input id="title" name="title" type="text" value="${fieldValue(state, 'title', settings.title)}" required maxlength="80"${describedBy(state, 'title')}>${fieldError(state, 'title')}
<label for="mfa_policy">Second factor at sign-in (MFA policy)</label><select id="mfa_policy" name="mfa_policy">
<option value=""${stored === '' ? html` selected` : ''}>the server's MFA_POLICY default</option>${mfaPolicies.map(
      (policy) => html`<option value="${policy}"${stored === policy ? html` selected` : ''}>${policyLabels[policy]}</option>`,
    )}</select>${fieldError(state, 'mfa_policy')}
<p>In force now: <strong id="mfa-in-force">${settings.mfaPolicy}</strong> (${settings.mfaPolicySource === 'setting' ? 'this setting' : 'MFA_POLICY'}).</p>
<div><button type="submit">Save</button></div></form></fieldset>
<fieldset><legend>Logo</legend>
${
  settings.logo
    ? html`<p><img id="current-logo" src="${logoUrl(request.deps.assetBaseUrl, settings.logo)}" alt="The current logo" height="64"></p>
<p>${settings.logo.contentType}, ${settings.logo.width}×${settings.logo.height} pixels, ${settings.logo.bytes} bytes</p>
${actionButton(`${dashboardPaths.logo}`, csrf, 'Remove the logo', { remove: 'logo' })}`
    : html`<p>No logo.</p>`
}
<form method="post" action="${dashboardPaths.logo}" enctype="multipart/form-data">${csrfField(csrf)}
<label for="logo">PNG, JPEG or WebP; at most ${maxLogoBytes / 1024} KiB and 1024×1024 pixels (SVG is refused)</label>
<input id="logo" name="logo" type="file" accept="${logoContentTypes.join(',')}" required>
<div><button type="submit">Upload</button></div></form></fieldset>`,
    { notice, status },
  );
}

async function save(request: DashboardRequest) {
  const changes = parseSiteSettingsChanges({
    ...(request.form.title !== undefined ? { title: request.form.title } : {}),
    // The empty choice returns to MFA_POLICY (the API's `mfa_policy: null`).
    ...(request.form.mfa_policy !== undefined ? { mfa_policy: request.form.mfa_policy === '' ? null : request.form.mfa_policy } : {}),
  });
  await updateSiteSettings(request.deps.site(), actorOf(request), changes);
  request.deps.forgetSiteDisplay();
  return redirect(`${dashboardPaths.settings}?done=saved`);
}

/**
 * POST /dashboard/logo: a new logo (multipart), or `remove=logo` (the Remove button). One
 * path for both: it is the only dashboard row granted to write under branding/.
 */
async function uploadOrRemoveLogo(request: DashboardRequest) {
  if (request.form.remove === 'logo') return deleteLogo(request);
  const files = request.files.filter((file) => file.name === 'logo');
  if (files.length !== 1 || files[0]!.data.length === 0) throw new InvalidRequestError('logo: choose one image file to upload.');
  const file = files[0]!;
  // The declared type is only a claim: replaceLogo checks it against the bytes (behaviour SITE-3).
  await replaceLogo(request.deps.logo(), actorOf(request), { bytes: file.data, declaredType: file.contentType ?? '' });
  request.deps.forgetSiteDisplay();
  return redirect(`${dashboardPaths.settings}?done=logo-updated`);
}

async function deleteLogo(request: DashboardRequest) {
  await removeLogo(request.deps.logo(), actorOf(request));
  request.deps.forgetSiteDisplay();
  return redirect(`${dashboardPaths.settings}?done=logo-removed`);
}

export const settingsRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'settings', run: (request) => settingsPage(request) },
  {
    method: 'POST',
    path: 'settings',
    run: save,
    refill: { fields: ['title', 'mfa_policy'], page: (request, state, status) => settingsPage({ ...request, query: {} }, state, status) },
  },
  { method: 'POST', path: 'logo', run: uploadOrRemoveLogo },
];
