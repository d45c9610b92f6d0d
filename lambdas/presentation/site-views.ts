/** The admin API's view of the site settings (GET/PATCH /api/admin/settings, the logo routes). */
import { actorView } from './actor-view';
import type { SiteLogo, SiteSettings } from '../core/site/settings';

/** Where browsers fetch the logo: the CDN of the JWKS bucket (locally the local server, which mirrors its layout). */
export const logoUrl = (cdnBaseUrl: string, logo: Pick<SiteLogo, 'key'>): string => `${cdnBaseUrl}/${logo.key}`;

export const siteSettingsView = (settings: SiteSettings, cdnBaseUrl: string) => ({
  title: settings.title,
  mfa_policy: settings.mfaPolicy,
  mfa_policy_source: settings.mfaPolicySource,
  logo: settings.logo
    ? {
        url: logoUrl(cdnBaseUrl, settings.logo),
        content_type: settings.logo.contentType,
        width: settings.logo.width,
        height: settings.logo.height,
        bytes: settings.logo.bytes,
      }
    : null,
  version: settings.version,
  updated_at: settings.updatedAt ?? null,
  updated_by: settings.updatedBy ? actorView(settings.updatedBy) : null,
});
