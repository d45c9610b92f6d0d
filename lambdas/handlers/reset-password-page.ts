/**
 * GET /reset-password?token=… and GET /reset-password (behaviour RESET-4, RESET-8): the page of a
 * mailed link. It only looks the link up: mail scanners open links before the user does, so a
 * GET must not use it up. A dead link (expired, used, replaced by a newer one, or outlived by a
 * password or address change) gets a page offering a new one.
 *
 * A live link answers 303 to the bare path with the token in a cookie (http/reset-cookies.ts):
 * the token leaves the address bar at once, so no later request of the page (its form post,
 * its favicon, a link followed from it) can carry it in a Referer, and the history holds none.
 * The only responses ever sent for a URL holding a token (the 303 and the dead-link page) say
 * `Referrer-Policy: no-referrer`.
 */
import { findResetLink } from '../core/account/password-reset';
import { InvalidGrantError } from '../core/errors';
import { resetTokenQuery, secretField } from '../http/account-forms';
import { htmlResponse, wantsHtml } from '../presentation/html';
import { redirect } from '../http/redirect';
import { clearedResetLinkCookie, readResetLinkCookie, resetLinkCookie } from '../http/reset-cookies';
import { resetLinkDeadPage, resetPasswordPage } from '../presentation/views/account';
import { accountPaths } from '../core/account/paths';
import { httpHandler } from '../wiring/handler';
import { getPasswordReset } from '../wiring/account';
import { getBrand } from '../wiring/site';

const deadLink = (reason: string) => new InvalidGrantError('This link has expired or was already used. Ask for a new one.', reason);
const noReferrer = { 'Referrer-Policy': 'no-referrer' };

export const handler = httpHandler(async (event, container) => {
  const issuer = container.config.baseUrl;
  const deps = getPasswordReset();
  const query = event.queryStringParameters ?? {};
  if (query.token !== undefined) {
    const parsed = resetTokenQuery.safeParse(query);
    const found = parsed.success ? await findResetLink(deps, parsed.data.token) : undefined;
    if (!found) {
      const reason = parsed.success ? 'dead link' : 'malformed token';
      container.log.info('reset link refused', { reason });
      // A caller that did not ask for a page (a tool, a scanner) gets the OAuth error shape.
      if (!wantsHtml(event)) throw deadLink(reason);
      return htmlResponse(400, resetLinkDeadPage(), { brand: await getBrand(), headers: noReferrer });
    }
    const lifetime = found.link.expiresAtEpoch - Math.floor(deps.clock.now() / 1000);
    return redirect(accountPaths.resetPassword, { ...noReferrer, 'Set-Cookie': resetLinkCookie(issuer, parsed.data!.token, lifetime) });
  }
  const token = readResetLinkCookie(event, issuer);
  if (token === undefined) {
    // Nothing to check: a SameSite=Strict cookie does not come with the GET that follows the 303
    // of a link clicked on another site (webmail). The form's post, started here, brings it.
    if (!wantsHtml(event)) throw deadLink('no reset link');
    return htmlResponse(200, resetPasswordPage({}), { brand: await getBrand() });
  }
  const found = secretField.safeParse(token).success ? await findResetLink(deps, token) : undefined;
  if (!found) {
    container.log.info('reset link refused', { reason: 'dead link in cookie' });
    if (!wantsHtml(event)) throw deadLink('dead link');
    return htmlResponse(400, resetLinkDeadPage(), { brand: await getBrand(), headers: { 'Set-Cookie': clearedResetLinkCookie(issuer) } });
  }
  return htmlResponse(200, resetPasswordPage({}), { brand: await getBrand() });
});
