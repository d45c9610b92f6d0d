/**
 * The dashboard's page frame (behaviour DASH-2): the same escaping `html` template and CSP as the sign-in
 * pages (no script at all, forms only to this origin, no framing), a wider layout with tables,
 * and the navigation. Every form is a POST carrying the session's CSRF token.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import type { User } from '../../core/model';
import { endpointPaths } from '../../core/paths';
import { type Brand, Html, html, htmlResponse, imageSource } from '../html';

const style = `body{font-family:system-ui,sans-serif;margin:0;color:#1a1a1a}
header{background:#1f2937;color:#fff;padding:.5rem 1rem;display:flex;gap:1.25rem;align-items:center;flex-wrap:wrap}
header a{color:#fff}header form{margin-left:auto}main{max-width:64rem;margin:1.5rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}
label{display:block;margin:.5rem 0 .2rem}input,select,textarea{padding:.4rem;box-sizing:border-box;max-width:100%}
input[type=text],input[type=email],input[type=password],input[type=datetime-local],textarea{width:28rem}
button{padding:.35rem .8rem;margin-top:.5rem}.inline{display:inline}.inline button{margin:0}
.error{color:#a40000;border:1px solid #a40000;padding:.5rem}.notice{background:#e8f5e9;border:1px solid #2e7d32;padding:.5rem}
.secret{background:#fff4d6;border:1px solid #e0b000;padding:.75rem}.tag{font-size:.8rem;background:#eee;padding:.1rem .4rem;border-radius:.3rem}
.danger{color:#a40000}fieldset{border:1px solid #ddd;margin:1rem 0}code{word-break:break-all}nav.pages a{margin-right:1rem}
.field-error{color:#a40000;font-weight:600;margin:.2rem 0}[aria-invalid=true]{border:2px solid #a40000}`;

export const dashboardPaths = {
  home: '/dashboard',
  clients: '/dashboard/clients',
  users: '/dashboard/users',
  environments: '/dashboard/environments',
  scopes: '/dashboard/scopes',
  trustedIssuers: '/dashboard/trusted-issuers',
  audit: '/dashboard/audit',
  settings: '/dashboard/settings',
  /**
   * The logo upload: a route row of its own, so not below /dashboard/settings, whose resource
   * API Gateway would then create without a method, hiding the settings page behind a 404.
   */
  logo: '/dashboard/logo',
} as const;

export const clientPath = (clientId: string, rest = '') => `${dashboardPaths.clients}/${encodeURIComponent(clientId)}${rest}`;
export const userPath = (userId: string, rest = '') => `${dashboardPaths.users}/${encodeURIComponent(userId)}${rest}`;

/** The hidden field every dashboard form carries. */
export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}">`;

/** A one-button form: revoke, remove, delete. */
export function actionButton(action: string, csrf: string, label: string, hidden: Record<string, string> = {}): Html {
  return html`<form class="inline" method="post" action="${action}">${csrfField(csrf)}${Object.entries(hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button type="submit">${label}</button></form>`;
}

export interface Frame {
  /** The site's title and logo (behaviour SITE-4), shown in the header. */
  readonly brand?: Brand;
  readonly admin: User;
  readonly csrf: string;
  readonly notice?: string;
  readonly error?: string;
}

export function dashboardPage(title: string, frame: Frame, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><title>${title} · Dashboard</title><style>${new Html(style)}</style></head>
<body><header>${frame.brand?.logoUrl ? html`<img src="${frame.brand.logoUrl}" alt="" height="28">` : ''}<strong>${frame.brand ? `${frame.brand.title} · ` : ''}Dashboard</strong>
<a href="${dashboardPaths.clients}">Clients</a><a href="${dashboardPaths.users}">Users</a>
<a href="${dashboardPaths.environments}">Environments</a><a href="${dashboardPaths.scopes}">Scopes</a>
<a href="${dashboardPaths.trustedIssuers}">Trusted issuers</a>
<a href="${dashboardPaths.audit}">Audit log</a><a href="${dashboardPaths.settings}">Settings</a>
<form class="inline" method="post" action="${endpointPaths.signOut}"><span>${frame.admin.email ?? frame.admin.name}</span> <button type="submit">Sign out</button></form>
</header><main><h1>${title}</h1>
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
${frame.error ? html`<p class="error" role="alert">${frame.error}</p>` : ''}
${body}
</main></body></html>`;
}

export function dashboardResponse(statusCode: number, body: Html): APIGatewayProxyResult {
  // no-store comes from the shared headers (lambdas/http/handler.ts): set here too so no page relies on it.
  return htmlResponse(statusCode, body, { headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' } });
}

/** The page's CSP gains the logo's origin as `img-src` (and nothing else), when there is a logo. */
export function withBrandImages(response: APIGatewayProxyResult, brand: Brand | undefined): APIGatewayProxyResult {
  const policy = response.headers?.['Content-Security-Policy'];
  const images = imageSource(brand);
  if (typeof policy !== 'string' || !images) return response;
  return { ...response, headers: { ...response.headers, 'Content-Security-Policy': `${policy}${images}` } };
}

/** A `?cursor=` link to the next page, keeping the page's other query parameters. */
export function nextPageLink(path: string, query: Record<string, string | undefined>, next: string | undefined): Html | '' {
  if (!next) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  params.set('cursor', next);
  return html`<p><a href="${path}?${params.toString()}" rel="next">Next page</a></p>`;
}
