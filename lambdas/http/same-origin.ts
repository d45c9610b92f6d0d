/**
 * CSRF defence for the form posts (RFC 6749 10.12; OWASP CSRF Cheat Sheet, "login CSRF"
 * and "verifying origin with standard headers"): a page on another site could post its own
 * credentials to the
 * sign-in form and sign the victim's browser into the attacker's account. SameSite=Lax
 * does not help there, as no cookie is needed. Browsers send `Sec-Fetch-Site` and `Origin`
 * on every form post; when present they must name this origin. Requests without them
 * (non-browser callers) cannot carry a victim's browser state and are allowed.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { AccessDeniedError } from '../core/errors';
import { header } from './body';

export function assertSameOrigin(event: Pick<APIGatewayProxyEvent, 'headers'>, issuer: string): void {
  // Sec-Fetch-Site is set by the browser and cannot be forged by a page; when present it decides.
  const site = header(event, 'sec-fetch-site');
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return;
    throw new AccessDeniedError('Cross-site form submissions are refused.', `Sec-Fetch-Site ${site}`);
  }
  // Older browsers: Origin must be ours; `null` (a sandboxed or opaque origin) is refused too.
  const origin = header(event, 'origin');
  if (origin !== undefined && origin !== new URL(issuer).origin) {
    throw new AccessDeniedError(`This form must be submitted from ${new URL(issuer).origin}.`, `Origin ${origin}`);
  }
}
