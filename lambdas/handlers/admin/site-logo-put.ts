/**
 * PUT /api/admin/site-logo: the raw image as the body, `Content-Type: image/png|image/jpeg|image/webp`
 * → 200 the settings, with the logo's URL. Audited as `site.logo.update` (behaviour SITE-3).
 */
import { checkDeclaredLogoType, maxLogoBytes, replaceLogo } from '../../core/site/logo';
import { adminActorOf } from '../../http/admin-caller';
import { binaryBody, mediaTypeOf } from '../../http/binary-body';
import { jsonResponse } from '../../http/response';
import { siteSettingsView } from '../../presentation/site-views';
import { adminHandler } from '../../wiring/admin-handler';
import { getSite } from '../../wiring/site';
import { getLogo } from '../../wiring/site-assets';

export const handler = adminHandler(async (event, container, caller) => {
  const declaredType = mediaTypeOf(event);
  checkDeclaredLogoType(declaredType);
  const bytes = binaryBody(event, maxLogoBytes);
  const settings = await replaceLogo(getLogo(), adminActorOf(caller), { bytes, declaredType });
  getSite().forget();
  return jsonResponse(200, siteSettingsView(settings, container.config.jwksCdnBaseUrl));
});
