/**
 * The page a secret is shown on, once (behaviour DASH-13): a create or rotate form keeps the secret
 * in a single-use record and answers 303 here, the handle (256 random bits) in the query string,
 * which neither the WAF log nor the API Gateway access log keeps (a path they do). The page claims
 * the record for the admin who made it; a reload, Back or another admin finds it claimed and is
 * told what to do instead. No-store, and no Referer carries the handle anywhere.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { keepForOneShowing, type ShownOnce, type ShownOncePurpose, takeShownOnce } from '../../core/admin/shown-once';
import { redirect } from '../../http/redirect';
import { html, type Html, htmlResponse } from '../html';
import { type DashboardRequest, type DashboardRoute, frameOf } from './context';
import { clientPath, dashboardPage } from './layout';

const pageSegment: Record<ShownOncePurpose, string> = {
  'client-secret': '/created',
  'api-key': '/new-key',
  'rotated-secret': '/new-secret',
};

/** Behaviour DASH-13: the handle goes in the query string, which the WAF and access logs leave out (lib/web-acl.ts, lib/authorization-server.ts). */
const pageAddress = (purpose: ShownOncePurpose, clientId: string, handle: string) =>
  clientPath(clientId, `${pageSegment[purpose]}?handle=${handle}`);

/**
 * Keeps the secret for one showing and sends the browser to its page (303: a reload re-posts
 * nothing). The change is already written (with no overlap a rotated secret's predecessor is dead),
 * so when the record cannot be kept this answer shows the secret itself: a reload may post the form
 * again, but nothing is lost (behaviour DASH-13).
 */
export async function showOnceAfterRedirect(request: DashboardRequest, shown: ShownOnce): Promise<APIGatewayProxyResult> {
  const { deps, container } = request;
  let handle: string;
  try {
    handle = await keepForOneShowing(
      { shownOnce: deps.shownOnce, clock: container.clock, random: container.random },
      request.admin.user.id,
      shown,
    );
  } catch (error) {
    // The error's name only: never the record (or anything of the secret) in the log.
    container.log.error('dashboard: secret not kept for one showing; shown in the answer instead', {
      purpose: shown.purpose,
      clientId: shown.clientId,
      cause: error instanceof Error ? error.name : 'unknown',
    });
    return secretPage(request, shown);
  }
  return redirect(pageAddress(shown.purpose, shown.clientId, handle));
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

/** The handle is in this page's address: no cache keeps the secret, no Referer takes the handle to another page (behaviour DASH-13). */
const shownOnceHeaders = { 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' };

function secretPage(request: DashboardRequest, shown: ShownOnce): APIGatewayProxyResult {
  const body = html`<p>Client ID: <code id="client-id">${shown.clientId}</code></p>${secretBlock(shown)}
<p><a href="${clientPath(shown.clientId)}">Go to the client</a></p>`;
  return htmlResponse(200, dashboardPage(titles[shown.purpose], frameOf(request), body), { headers: shownOnceHeaders });
}

function shownPage(purpose: ShownOncePurpose) {
  return async (request: DashboardRequest): Promise<APIGatewayProxyResult> => {
    const clientId = request.params.id!;
    const shown = await takeShownOnce(
      { shownOnce: request.deps.shownOnce, clock: request.container.clock },
      request.query.handle ?? '',
      request.admin.user.id,
      purpose,
    );
    if (shown) return secretPage(request, shown);
    const body = html`${goneBlock(purpose, clientId)}<p><a href="${clientPath(clientId)}">Go to the client</a></p>`;
    return htmlResponse(410, dashboardPage('Already shown', frameOf(request), body), { headers: shownOnceHeaders });
  };
}

export const shownOnceRoutes: readonly DashboardRoute[] = [
  { method: 'GET', path: 'clients/:id/created', run: shownPage('client-secret') },
  { method: 'GET', path: 'clients/:id/new-key', run: shownPage('api-key') },
  { method: 'GET', path: 'clients/:id/new-secret', run: shownPage('rotated-secret') },
];
