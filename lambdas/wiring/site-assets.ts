/**
 * Where the logo is written: the JWKS bucket in AWS (SITE_ASSETS_BUCKET, set by the stack for the
 * functions granted `branding/*`), a folder locally (SITE_ASSETS_DIR, set by the local server).
 */
import { FileSiteAssetStore } from '../adapters/file-site-assets';
import { S3SiteAssetStore } from '../adapters/s3-site-assets';
import type { LogoDependencies } from '../core/site/logo';
import type { SiteAssetStore } from '../core/site/ports';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';
import { getSite } from './site';

export const getSiteAssets = /* @__PURE__ */ perContainer((env): SiteAssetStore => {
  if (env.SITE_ASSETS_BUCKET) {
    return new S3SiteAssetStore(env.SITE_ASSETS_BUCKET, awsClientSettings(env));
  }
  if (env.SITE_ASSETS_DIR) return new FileSiteAssetStore(env.SITE_ASSETS_DIR);
  throw new Error('Neither SITE_ASSETS_BUCKET nor SITE_ASSETS_DIR is set: this function cannot store the logo.');
});

export function getLogo(): LogoDependencies {
  const { log } = getContainer();
  return { ...getSite().deps, assets: getSiteAssets(), warn: (message, fields) => log.warn(message, fields) };
}
