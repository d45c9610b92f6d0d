/**
 * The site settings of a container (behaviour SITE-1, SITE-2). Two ways to read them, by how soon a change must count:
 * - `current()`: strongly consistent, one GetItem per call. For the MFA policy at sign-in: a
 *   tightened policy is a security control and must apply to the very next sign-in in every
 *   container; the sign-in already pays for an Argon2id verification (tens of ms), so one small read is noise.
 * - `tokenMfaPolicy()`: the MFA policy for the token endpoint, remembered for a second per container
 *   (tokenMfaPolicyCacheMs).
 * - `forDisplay()`: remembered for a minute per container. The title and logo on pages and mails
 *   are cosmetic; a page may show the old ones for up to a minute after a change (sooner in the
 *   container that made it, which forgets its copy).
 */
import { DynamoSiteSettingsStore } from '../adapters/dynamodb/site-settings-store';
import type { MfaPolicy } from '../config/settings';
import { cachedLoader } from '../core/cache';
import { defaultSiteTitle, getSiteSettings, type SiteSettings, type SiteSettingsDependencies } from '../core/site/settings';
import type { Brand } from '../presentation/html';
import { logoUrl } from '../presentation/site-views';
import { getContainer, perContainer } from './container';
import { getStorage } from './storage';

export const siteDisplayCacheMs = 60_000;

/**
 * How long a container keeps the MFA policy for the token endpoint (behaviour MFA-9, REFRESH-6):
 * a second. Every refresh of a sign-in without a second factor needs it, and the setting is one
 * item; read strongly consistently each time, it would cap those refreshes near 3,000 a second for
 * the whole deployment. A tightened policy reaches refreshes within this second.
 */
export const tokenMfaPolicyCacheMs = 1_000;

export interface SiteWiring {
  readonly deps: SiteSettingsDependencies;
  readonly current: () => Promise<SiteSettings>;
  /** The MFA policy for the token endpoint: at most tokenMfaPolicyCacheMs old. */
  readonly tokenMfaPolicy: () => Promise<MfaPolicy>;
  readonly forDisplay: () => Promise<SiteSettings>;
  /** After a change made here: this container's next page shows it. */
  readonly forget: () => void;
}

/**
 * The title and logo for a page or mail, from the display cache. A page still renders when the
 * settings cannot be read (the default title, no logo): branding is never worth a failed sign-in.
 */
export async function getBrand(): Promise<Brand> {
  const { config, log } = getContainer();
  try {
    const settings = await getSite().forDisplay();
    return { title: settings.title, ...(settings.logo ? { logoUrl: logoUrl(config.jwksCdnBaseUrl, settings.logo) } : {}) };
  } catch (error) {
    log.warn('site settings unreadable; showing the default title', { error: (error as Error).message });
    return { title: defaultSiteTitle };
  }
}

export const getSite = /* @__PURE__ */ perContainer((): SiteWiring => {
  const { config, clock } = getContainer();
  const { db, tables } = getStorage();
  const deps: SiteSettingsDependencies = { store: new DynamoSiteSettingsStore(db, tables), clock, defaultMfaPolicy: config.mfaPolicy };
  const policyLoader = () => cachedLoader(async () => (await getSiteSettings(deps)).mfaPolicy, tokenMfaPolicyCacheMs, clock);
  let display = cachedLoader(() => getSiteSettings(deps), siteDisplayCacheMs, clock);
  let tokenPolicy = policyLoader();
  return {
    deps,
    current: () => getSiteSettings(deps),
    tokenMfaPolicy: () => tokenPolicy(),
    forDisplay: () => display(),
    forget: () => {
      display = cachedLoader(() => getSiteSettings(deps), siteDisplayCacheMs, clock);
      tokenPolicy = policyLoader();
    },
  };
});
