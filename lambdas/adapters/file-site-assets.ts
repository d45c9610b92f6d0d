/**
 * The site's assets on disk for local runs: `<DATA_DIR>/assets/<key>`, the same layout as the
 * JWKS bucket, served by the local server at `/<key>` (lambdas/local/server.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SiteAssetStore } from '../core/site/ports';

/** Keys are chosen by the server (core/site/logo.ts); anything else never touches the disk. */
export const siteAssetKeyPattern = /^branding\/logo-[0-9a-f]{64}\.(png|jpg|webp)$/;

function pathOf(root: string, key: string): string {
  if (!siteAssetKeyPattern.test(key)) throw new Error(`not a site asset key: ${key}`);
  return join(root, key);
}

export class FileSiteAssetStore implements SiteAssetStore {
  constructor(private readonly root: string) {}

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = pathOf(this.root, key);
    await mkdir(dirname(path), { recursive: true });
    // Written aside and renamed, so the server never serves half a file.
    const partial = `${path}.${randomUUID()}.partial`;
    await writeFile(partial, bytes);
    await rename(partial, path);
  }

  async delete(key: string): Promise<void> {
    await rm(pathOf(this.root, key), { force: true });
  }
}
