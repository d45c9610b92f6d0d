/**
 * Where the logo is written: the JWKS bucket in AWS (SITE_ASSETS_BUCKET, set by the stack for the
 * functions granted `branding/*`), a folder locally (SITE_ASSETS_DIR, set by the local server).
 * The S3 adapter is loaded on the first write, so the upload function's cold start does not pay
 * for the S3 client (esbuild turns the import() into a lazy init).
 */
import { FileSiteAssetStore } from '../adapters/file-site-assets';
import type { LogoDependencies, SiteAssetStore } from '../core/site/logo';
import { getContainer, perContainer } from './container';
import { getSite } from './site';

function lazyS3(bucket: string, region: string | undefined): SiteAssetStore {
  let loaded: Promise<SiteAssetStore> | undefined;
  const store = () => (loaded ??= import('../adapters/s3-site-assets').then((m) => new m.S3SiteAssetStore(bucket, region)));
  return {
    put: async (key, bytes, contentType) => (await store()).put(key, bytes, contentType),
    delete: async (key) => (await store()).delete(key),
  };
}

export const getSiteAssets = /* @__PURE__ */ perContainer((env): SiteAssetStore => {
  if (env.SITE_ASSETS_BUCKET) return lazyS3(env.SITE_ASSETS_BUCKET, env.AWS_REGION);
  if (env.SITE_ASSETS_DIR) return new FileSiteAssetStore(env.SITE_ASSETS_DIR);
  throw new Error('Neither SITE_ASSETS_BUCKET nor SITE_ASSETS_DIR is set: this function cannot store the logo.');
});

export function getLogo(): LogoDependencies {
  const { log } = getContainer();
  return { ...getSite().deps, assets: getSiteAssets(), warn: (message, fields) => log.warn(message, fields) };
}
