/**
 * PATCH /api/admin/settings: `{ title?, mfa_policy? }` (`mfa_policy: null` returns to MFA_POLICY)
 * → 200 the settings. Audited as `site.settings.update` with the admin as actor.
 */
import { parseSiteSettingsChanges, siteSettingsChangesSchema, updateSiteSettings } from '../../core/site/settings';
import { adminActorOf } from '../../http/admin-caller';
import { parseBody } from '../../http/body';
import { jsonResponse } from '../../http/response';
import { siteSettingsView } from '../../presentation/site-views';
import { adminHandler } from '../../wiring/admin-handler';
import { getSite } from '../../wiring/site';

/** The request body; exported for the OpenAPI document (bin/openapi.ts). */
export const schema = siteSettingsChangesSchema;

export const handler = adminHandler(async (event, container, caller) => {
  const changes = parseSiteSettingsChanges(parseBody(event, ['json']));
  const site = getSite();
  const settings = await updateSiteSettings(site.deps, adminActorOf(caller), changes);
  site.forget();
  return jsonResponse(200, siteSettingsView(settings, container.config.jwksCdnBaseUrl));
});
