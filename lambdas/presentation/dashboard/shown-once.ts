/**
 * The page a secret is shown on, once (behaviour DASH-13): a create or rotate form keeps the secret
 * in a single-use record and answers 303 here, the handle (256 random bits) in the path. The page
 * claims the record for the admin who made it; a reload, Back or another admin finds it claimed and
 * is told what to do instead. No-store, and no Referer carries the handle anywhere.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { keepForOneShowing, type ShownOnce, type ShownOncePurpose, takeShownOnce } from '../../core/admin/shown-once';
import { redirect } from '../../http/redirect';
import { html, type Html, htmlResponse } from '../html';
import { type DashboardRequest, type DashboardRoute, frameOf } from './context';
import { clientPath, dashboardPage } from './layout';

const pagePath: Record<ShownOncePurpose, (clientId: string, handle: string) => string> = {
  'client-secret': (clientId, handle) => clientPath(clientId, `/created/${handle}`),
  'api-key': (clientId, handle) => clientPath(clientId, `/new-key/${handle}`),
  'rotated-secret': (clientId, handle) => clientPath(clientId, `/new-secret/${handle}`),
};

/** Keeps the secret for one showing and sends the browser to its page (303: a reload re-posts nothing). */
export async function showOnceAfterRedirect(request: DashboardRequest, shown: ShownOnce): Promise<APIGatewayProxyResult> {
  const { deps, container } = request;
  const handle = await keepForOneShowing(
    { shownOnce: deps.shownOnce, clock: container.clock, random: container.random },
    request.admin.user.id,
    shown,
  );
  return redirect(pagePath[shown.purpose](shown.clientId, handle));
}

const titles: Record<ShownOncePurpose, string> = {
  'client-secret': 'Client created',
  'api-key': 'API key created',
  'rotated-secret': 'Secret rotated',
};

function secretBlock(shown: ShownOnce): Html {
  if (shown.purpose === 'api-key') {
    return html`<p>Key ID: <code id="key-id">${shown.keyId ?? ''}</code></p>
<div class="secret"><p><strong>Copy the API key now: it is shown only this once.</strong> Only its hash is stored.</p><p><code id="api-key">${shown.secret}</code></p></div>`;
  }
  const what = shown.purpose === 'rotated-secret' ? 'the new client secret' : 'the client secret';
  return html`<div class="secret"><p><strong>Copy ${what} now: it is shown only this once.</strong> Only its hash is stored.</p>
<p><code id="client-secret">${shown.secret}</code></p></div>${
    shown.purpose === 'rotated-secret'
      ? html`<p id="previous-secret">${
          shown.previousSecretExpiresAt
            ? `The previous secret keeps working until ${shown.previousSecretExpiresAt}.`
            : 'The previous secret no longer works.'
        }</p>`
      : ''
  }`;
}

/** Behaviour DASH-13: what a reload, Back, an expired or another admin's handle sees instead of the secret. */
function goneBlock(purpose: ShownOncePurpose, clientId: string): Html {
  const instead =
    purpose === 'api-key'
      ? html`create a new key on <a href="${clientPath(clientId)}">the client's page</a> (and revoke the lost one) if it was lost.`
      : html`<a href="${clientPath(clientId, '/secret')}">rotate it</a> if it was lost.`;
  const what = purpose === 'api-key' ? 'This API key' : 'This secret';
  return html`<p class="error" id="already-shown" role="alert">${what} was already shown, and is not shown again; ${instead}</p>`;
}

function shownPage(purpose: ShownOncePurpose) {
  return async (request: DashboardRequest): Promise<APIGatewayProxyResult> => {
    const clientId = request.params.id!;
    const shown = await takeShownOnce(
      { shownOnce: request.deps.shownOnce, clock: request.container.clock },
      request.params.handle!,
      request.admin.user.id,
      purpose,
    );
    const body = shown
      ? html`<p>Client ID: <code id="client-id">${shown.clientId}</code></p>${secretBlock(shown)}
<p><a href="${clientPath(shown.clientId)}">Go to the client</a></p>`
      : html`${goneBlock(purpose, clientId)}<p><a href="${clientPath(clientId)}">Go to the client</a></p>`;
    return htmlResponse(shown ? 200 : 410, dashboardPage(shown ? titles[purpose] : 'Already shown', frameOf(request), body), {
      // The handle is in this page's address: no Referer takes it to another page (behaviour DASH-13).
      headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' },
    });
  };
}

export const shownOnceRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'clients/:id/created/:handle', run: shownPage('client-secret') },
  { method: 'GET', path: 'clients/:id/new-key/:handle', run: shownPage('api-key') },
  { method: 'GET', path: 'clients/:id/new-secret/:handle', run: shownPage('rotated-secret') },
];
