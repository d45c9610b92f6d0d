/**
 * Server-rendered pages (sign-in, consent, errors) that work without JavaScript.
 * Every interpolated value goes through `html`, which escapes it unless it is already
 * `Html`; attribute values are always double-quoted, so escaping `"` and `'` keeps them
 * closed. Pages get their own Content-Security-Policy: no script at all, inline styles,
 * forms only to this origin (plus where the flow redirects, see `formTarget`), and no
 * framing (clickjacking of the consent button, RFC 9700 4.16).
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { header } from '../http/body';

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = Html | string | number | undefined | null | false | readonly Interpolation[];

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]!);
}

function render(value: Interpolation): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  return new Html(strings.reduce((out, text, i) => out + text + (i < values.length ? render(values[i]) : ''), ''));
}

const style = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem}.error{color:#a40000}.warning{background:#fff4d6;border:1px solid #e0b000;padding:.75rem}
.actions{display:flex;gap:1rem}code{word-break:break-all}
.brand{display:flex;align-items:center;gap:.75rem;font-weight:600;margin-bottom:1.5rem}.brand img{max-height:48px;max-width:12rem}`;

/** Where pages put the site's title and logo (htmlResponse `brand`). */
const brandMarker = '<!--brand-->';
/**
 * The page's `<meta name="referrer">`: htmlResponse writes the same policy as its
 * Referrer-Policy header there, since a meta tag read later would override the header
 * (behaviour RESET-8: a page whose URL holds a secret says `no-referrer` in both).
 */
const referrerMarker = '<meta name="referrer" content="same-origin">';

export function page(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${new Html(referrerMarker)}<title>${title}</title><style>${new Html(style)}</style></head>
<body>${new Html(brandMarker)}<main><h1>${title}</h1>
${body}
</main></body></html>`;
}

/**
 * A CSP source for where a form's response may redirect. Browsers apply `form-action` to
 * the redirects that follow a form post too, so the sign-in and consent pages must allow
 * the client's redirect URI, or the final 303 to it would be blocked.
 */
export function formTarget(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : undefined; // private-use schemes (RFC 8252 7.1)
  } catch {
    return undefined;
  }
}

/** The site's title and logo (behaviour SITE-4), shown above a page's own heading. */
export interface Brand {
  readonly title: string;
  /** Absolute URL of the logo on the JWKS CDN (locally on this server). */
  readonly logoUrl?: string;
}

function brandHeader(brand: Brand): string {
  const logo = brand.logoUrl ? html`<img src="${brand.logoUrl}" alt="" height="48">` : '';
  return html`<header class="brand">${logo}<span>${brand.title}</span></header>`.value;
}

/** The CSP source of the logo: the origin it is served from, nothing else. */
export function imageSource(brand: Brand | undefined): string {
  if (!brand?.logoUrl) return '';
  try {
    return `; img-src ${new URL(brand.logoUrl).origin}`;
  } catch {
    return '';
  }
}

export interface HtmlOptions {
  /** The site's title and logo; absent: the page shows neither. */
  readonly brand?: Brand;
  readonly headers?: Readonly<Record<string, string>>;
  /** Extra `form-action` sources (formTarget of the client's redirect URI). */
  readonly formTargets?: readonly (string | undefined)[];
  /**
   * The nonce of the page's one inline script (the passkey pages, behaviour PASSKEY-10): only that script
   * runs, and it may fetch only from this origin.
   */
  readonly scriptNonce?: string;
}

export function htmlResponse(statusCode: number, body: Html, options: HtmlOptions = {}): APIGatewayProxyResult {
  const targets = ["'self'", ...(options.formTargets ?? []).filter((t): t is string => t !== undefined)];
  const script = options.scriptNonce ? `; script-src 'nonce-${options.scriptNonce}'; connect-src 'self'` : '';
  const images = imageSource(options.brand);
  const referrerPolicy =
    Object.entries(options.headers ?? {}).find(([name]) => name.toLowerCase() === 'referrer-policy')?.[1] ?? 'same-origin';
  return {
    statusCode,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${targets.join(' ')}; frame-ancestors 'none'; base-uri 'none'${script}${images}`,
      // Not no-referrer: browsers then send `Origin: null` on the page's own form posts, which
      // the CSRF check cannot tell from a sandboxed cross-site frame. same-origin leaks nothing
      // to other sites and keeps the real Origin on our posts.
      'Referrer-Policy': 'same-origin',
      ...options.headers,
    },
    body: body.value
      .replace(brandMarker, options.brand ? brandHeader(options.brand) : '')
      .replace(referrerMarker, html`<meta name="referrer" content="${referrerPolicy}">`.value),
  };
}

/**
 * Browsers ask for text/html on navigations and form posts; API clients and tools do not.
 * Those get the usual OAuth JSON error instead of a page.
 */
export function wantsHtml(event: Pick<APIGatewayProxyEvent, 'headers'>): boolean {
  return /\btext\/html\b/i.test(header(event, 'accept') ?? '');
}
