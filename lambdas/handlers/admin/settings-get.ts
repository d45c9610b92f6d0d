/** GET /api/admin/settings: the site settings as they apply now (stored values, else the defaults). */
import { getSiteSettings } from '../../core/site/settings';
import { jsonResponse } from '../../http/response';
import { siteSettingsView } from '../../presentation/site-views';
import { adminHandler } from '../../wiring/admin-handler';
import { getSite } from '../../wiring/site';

export const handler = adminHandler(async (_event, container) =>
  jsonResponse(200, siteSettingsView(await getSiteSettings(getSite().deps), container.config.jwksCdnBaseUrl)),
);
