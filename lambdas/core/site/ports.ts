/**
 * What the site's use cases (settings.ts, logo.ts) need from storage: the settings record with
 * its audit entry, and the logo objects. DynamoDB and S3 (or a folder locally) implement them.
 */
import type { AdminActor } from '../admin/audit';
import type { MfaPolicy } from '../model';

export const logoContentTypes = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoContentType = (typeof logoContentTypes)[number];

/** The current logo: an object under `branding/` named by its content's SHA-256. */
export interface SiteLogo {
  /** Object key, e.g. `branding/logo-<sha256 hex>.png`: new content, new key, so it can be cached forever. */
  readonly key: string;
  readonly contentType: LogoContentType;
  readonly width: number;
  readonly height: number;
  readonly bytes: number;
}

/** The stored record; absent fields take their defaults. */
export interface StoredSiteSettings {
  readonly title?: string;
  /** Overrides MFA_POLICY while set. */
  readonly mfaPolicy?: MfaPolicy;
  readonly logo?: SiteLogo;
  /** Counts writes; each write requires the version it read (optimistic locking). 0: nothing stored yet. */
  readonly version: number;
  readonly updatedAt?: string;
  readonly updatedBy?: AdminActor;
}

export type SiteAuditType = 'site.settings.update' | 'site.logo.update' | 'site.logo.delete';

/** An admin audit entry of the site (partition `AUDIT#SITE`), written in the same transaction as the change. */
export interface SiteAuditEntry {
  readonly type: SiteAuditType;
  readonly actor: AdminActor;
  readonly at: string;
  /** The fields that changed, old and new value (`null`: unset). */
  readonly changes: Readonly<Record<string, { readonly from: unknown; readonly to: unknown }>>;
}

export interface SiteSettingsStore {
  /** Strongly consistent: a change a moment ago must count (the MFA policy of the next sign-in). */
  get(): Promise<StoredSiteSettings | undefined>;
  /**
   * Writes `next` (whose version is one more than the stored one) with the audit entry, in one
   * transaction, only if the stored version is still `next.version - 1`; false when another write came first.
   */
  save(next: StoredSiteSettings, audit: SiteAuditEntry): Promise<boolean>;
}

/** Where logo objects go: S3 in AWS, a folder locally. Both calls must be idempotent. */
export interface SiteAssetStore {
  /** Stores the object with this fixed Content-Type; new bytes always get a new key, so it may be cached forever. */
  put(key: string, bytes: Uint8Array, contentType: LogoContentType): Promise<void>;
  /** Removes it; removing what is not there succeeds. */
  delete(key: string): Promise<void>;
}
