/**
 * What the site's use cases (settings.ts, logo.ts) need from storage: the settings record with
 * its audit entry, and the logo objects. DynamoDB and S3 (or a folder locally) implement them.
 */
import type { LogoContentType, SiteAuditEntry, StoredSiteSettings } from './settings';

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
