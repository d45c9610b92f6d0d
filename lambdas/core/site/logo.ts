/**
 * The site logo (behaviour SITE-3, SITE-4): checked from its bytes, stored under a
 * server-chosen content-addressed key (ASVS 5.3.2: nothing of the uploader's naming reaches
 * storage), then recorded in the settings with its audit entry. The admin API and the dashboard
 * both call these functions.
 */
import { createHash } from 'node:crypto';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';
import type { AdminActor } from '../admin/audit';
import { inspectImage } from './image';
import type { SiteAssetStore } from './ports';
import {
  changeSiteSettings,
  type SiteAuditEntry,
  logoContentTypes,
  type LogoContentType,
  type SiteLogo,
  type SiteSettings,
  type SiteSettingsDependencies,
} from './settings';

export const maxLogoBytes = 512 * 1024;
export const maxLogoPixels = { width: 1024, height: 1024 } as const;
/** Every logo object lives under this prefix of the JWKS bucket; the uploading function may write only there. */
export const logoKeyPrefix = 'branding/';

const extensions: Readonly<Record<LogoContentType, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const typeNames: Readonly<Record<LogoContentType, string>> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

export interface LogoDependencies extends SiteSettingsDependencies {
  readonly assets: SiteAssetStore;
  /** Cleanup that failed after the change was saved: logged, never failing the request. */
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

export interface LogoUpload {
  readonly bytes: Uint8Array;
  /** The request's Content-Type, without parameters, lower case. */
  readonly declaredType: string;
}

/** The declared type must be one of ours before any byte is looked at (415 otherwise). */
export function checkDeclaredLogoType(declaredType: string): LogoContentType {
  if (declaredType === 'image/svg+xml') {
    throw new UnsupportedMediaTypeError('SVG logos are refused: SVG is XML that can carry script. Upload a PNG, JPEG or WebP image.');
  }
  if (!(logoContentTypes as readonly string[]).includes(declaredType)) {
    throw new UnsupportedMediaTypeError(
      `The logo must be sent as ${logoContentTypes.join(', ')} (got ${declaredType || 'no Content-Type'}).`,
    );
  }
  return declaredType as LogoContentType;
}

/** Behaviour SITE-3: the checks, in the order a caller can act on them; throws a 4xx naming the problem. */
export function checkLogo(upload: LogoUpload): Omit<SiteLogo, 'key'> {
  const declared = checkDeclaredLogoType(upload.declaredType);
  if (upload.bytes.length > maxLogoBytes) {
    throw new PayloadTooLargeError(`The logo is ${upload.bytes.length} bytes; at most ${maxLogoBytes} (512 KiB) are accepted.`);
  }
  if (upload.bytes.length === 0) throw new InvalidRequestError('The request has no image: send the logo bytes as the body.');
  const found = inspectImage(upload.bytes);
  if (found.kind === 'svg') {
    throw new InvalidRequestError(
      'The bytes are SVG or other markup, which is refused: SVG can carry script. Upload a PNG, JPEG or WebP image.',
    );
  }
  if (found.kind === 'unknown') throw new InvalidRequestError('The bytes are not a PNG, JPEG or WebP image.');
  if (found.contentType !== declared) {
    throw new InvalidRequestError(
      `The bytes are a ${typeNames[found.contentType]} image but were sent as ${declared}; send Content-Type ${found.contentType}.`,
    );
  }
  if (found.kind === 'broken') throw new InvalidRequestError(`The ${typeNames[declared]} image header is cut short or malformed.`);
  if (found.width > maxLogoPixels.width || found.height > maxLogoPixels.height) {
    throw new InvalidRequestError(
      `The logo is ${found.width}x${found.height} pixels; at most ${maxLogoPixels.width}x${maxLogoPixels.height} are accepted.`,
    );
  }
  return { contentType: declared, width: found.width, height: found.height, bytes: upload.bytes.length };
}

const noChanges: SiteAuditEntry['changes'] = {};

/** `branding/logo-<SHA-256 hex>.<ext>`: the same image always gets the same key, another image another key. */
export const logoKey = (bytes: Uint8Array, contentType: LogoContentType): string =>
  `${logoKeyPrefix}logo-${createHash('sha256').update(bytes).digest('hex')}.${extensions[contentType]}`;

/**
 * Stores the object first, then the settings with `site.logo.update`: a failure before the
 * settings change leaves the old logo in place (and the new object is removed again); the old
 * object is removed only after the settings no longer name it.
 */
export async function replaceLogo(deps: LogoDependencies, actor: AdminActor, upload: LogoUpload): Promise<SiteSettings> {
  const checked = checkLogo(upload);
  const logo: SiteLogo = { key: logoKey(upload.bytes, checked.contentType), ...checked };
  await deps.assets.put(logo.key, upload.bytes, logo.contentType);
  let result: Awaited<ReturnType<typeof changeSiteSettings>>;
  try {
    result = await changeSiteSettings(deps, actor, 'site.logo.update', (current) => ({
      next: { ...current, logo },
      changes: current.logo?.key === logo.key ? noChanges : { logo: { from: current.logo?.key ?? null, to: logo.key } },
    }));
  } catch (error) {
    const current = await deps.store.get().catch(() => undefined);
    if (current?.logo?.key !== logo.key) await removeQuietly(deps, logo.key, 'unused logo after a failed settings change');
    throw error;
  }
  const previous = result.previous.logo?.key;
  if (previous && previous !== logo.key) await removeQuietly(deps, previous, 'replaced logo');
  return result.settings;
}

/** Idempotent: without a logo nothing is written or audited. */
export async function removeLogo(deps: LogoDependencies, actor: AdminActor): Promise<SiteSettings> {
  const result = await changeSiteSettings(deps, actor, 'site.logo.delete', (current) => {
    const { logo: _logo, ...rest } = current;
    return { next: rest, changes: current.logo ? { logo: { from: current.logo.key, to: null } } : noChanges };
  });
  const previous = result.previous.logo?.key;
  if (previous) await removeQuietly(deps, previous, 'removed logo');
  return result.settings;
}

async function removeQuietly(deps: LogoDependencies, key: string, what: string): Promise<void> {
  try {
    await deps.assets.delete(key);
  } catch (error) {
    deps.warn(`could not delete the ${what}; it stays in storage unreferenced`, { key, error: (error as Error).message });
  }
}
