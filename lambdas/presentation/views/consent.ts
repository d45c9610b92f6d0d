/**
 * Consent for dynamically registered clients (behaviour AUTHZ-8), and for any client whose request
 * says prompt=consent (OIDC Core 3.1.2.1). Anyone can register a dynamic client, under any
 * name, so the page names it, shows where the browser will be sent (the redirect host, which
 * the name cannot fake) and, for a self-registered one, says plainly that nobody vetted it.
 */
import { endpointPaths } from '../../core/paths';
import { html, page, type Html } from '../html';

export interface ConsentView {
  readonly requestId: string;
  readonly clientName: string;
  /** Registered through RFC 7591 or a metadata document: nobody vetted it (else prompt=consent asked). */
  readonly selfRegistered: boolean;
  readonly redirectHost: string;
  readonly scopes: readonly { readonly name: string; readonly description?: string }[];
  readonly resource?: string;
}

export function consentPage(view: ConsentView): Html {
  return page(
    'Allow access?',
    html`<p><strong>${view.clientName}</strong> wants to access your account.</p>
${
  view.selfRegistered
    ? html`<p class="warning" role="alert">This application registered itself with this server. It has not been reviewed or vetted by your administrators. Continue only if you trust it and expected this request.</p>`
    : ''
}
<p>After you decide, you will be sent to <code>${view.redirectHost}</code>.</p>
${view.resource ? html`<p>Access is limited to <code>${view.resource}</code>.</p>` : ''}
${
  view.scopes.length > 0
    ? html`<p>It asks for:</p><ul>${view.scopes.map((s) => html`<li><code>${s.name}</code>${s.description ? html`: ${s.description}` : ''}</li>`)}</ul>`
    : html`<p>It asks for no specific permissions.</p>`
}
<form method="post" action="${endpointPaths.authorizeComplete}">
<input type="hidden" name="request_id" value="${view.requestId}">
<div class="actions">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
  );
}
