/**
 * Site settings (behaviour SITE-1, SITE-2): the title shown on pages and in mails, the MFA policy and the logo,
 * one stored record changed by the admin API and the dashboard through the functions here, so
 * both apply the same rules. MFA_POLICY stays the default: a stored policy overrides it, and
 * clearing the stored one (`null`) falls back to it.
 */
import * as z from 'zod/mini';
import { mfaPolicies, type MfaPolicy } from '../model';
import { ConflictRequestError, InvalidRequestError } from '../errors';
import type { AdminActor } from '../admin/audit';
import type { Clock } from '../ports';
import type { SiteAuditEntry, SiteAuditType, SiteLogo, SiteSettingsStore, StoredSiteSettings } from './ports';

export {
  logoContentTypes,
  type LogoContentType,
  type SiteAuditEntry,
  type SiteAuditType,
  type SiteLogo,
  type StoredSiteSettings,
} from './ports';
import { describeIssue } from '../zod-issues';

/** What pages, mails and sign-in use: every field resolved. */
export interface SiteSettings {
  readonly title: string;
  readonly mfaPolicy: MfaPolicy;
  /** Whether the policy is the stored setting or the MFA_POLICY default. */
  readonly mfaPolicySource: 'setting' | 'environment';
  readonly logo?: SiteLogo;
  readonly version: number;
  readonly updatedAt?: string;
  readonly updatedBy?: AdminActor;
}

export const defaultSiteTitle = 'Tollgate';

export interface SiteSettingsDependencies {
  readonly store: SiteSettingsStore;
  readonly clock: Clock;
  /** MFA_POLICY: the policy while none is stored. */
  readonly defaultMfaPolicy: MfaPolicy;
}

export function resolveSiteSettings(stored: StoredSiteSettings | undefined, defaultMfaPolicy: MfaPolicy): SiteSettings {
  const record = stored ?? { version: 0 };
  return {
    title: record.title ?? defaultSiteTitle,
    mfaPolicy: record.mfaPolicy ?? defaultMfaPolicy,
    mfaPolicySource: record.mfaPolicy === undefined ? 'environment' : 'setting',
    ...(record.logo ? { logo: record.logo } : {}),
    version: record.version,
    ...(record.updatedAt ? { updatedAt: record.updatedAt } : {}),
    ...(record.updatedBy ? { updatedBy: record.updatedBy } : {}),
  };
}

export async function getSiteSettings(deps: SiteSettingsDependencies): Promise<SiteSettings> {
  return resolveSiteSettings(await deps.store.get(), deps.defaultMfaPolicy);
}

// Control characters (and the line/paragraph separators) would break mail subjects and page layout.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A site title: 1 to 80 characters after trimming, no control characters. */
export const siteTitleSchema = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(80),
  z.refine((value) => !controlCharacters.test(value), 'must not contain control characters or line breaks'),
);

/** The changes an admin may ask for; omitted fields stay, `mfa_policy: null` returns to MFA_POLICY. */
export const siteSettingsChangesSchema = z.strictObject({
  title: z.optional(siteTitleSchema),
  mfa_policy: z.optional(z.nullable(z.enum(mfaPolicies))),
});

export interface SiteSettingsChanges {
  readonly title?: string;
  /** `null`: forget the stored policy, so MFA_POLICY applies again. */
  readonly mfaPolicy?: MfaPolicy | null;
}

/** Reads the admin API's JSON or the dashboard's form fields (both named as in the schema); a readable 400 on bad input. */
export function parseSiteSettingsChanges(input: unknown): SiteSettingsChanges {
  const result = z.safeParse(siteSettingsChangesSchema, input, { error: describeIssue });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new InvalidRequestError(`${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  const { title, mfa_policy } = result.data;
  if (title === undefined && mfa_policy === undefined) throw new InvalidRequestError('Nothing to change: give title or mfa_policy.');
  return { ...(title !== undefined ? { title } : {}), ...(mfa_policy !== undefined ? { mfaPolicy: mfa_policy } : {}) };
}

/** A few tries: two admins saving at once both succeed, the later one on the record the first wrote. */
const saveAttempts = 3;

/**
 * Applies `change` to the stored record and saves it with the audit entry `type`, re-reading and
 * re-applying when another write came first. `change` returns the new record fields and the
 * audit's field changes; no field changes means nothing is written (and nothing audited).
 */
export async function changeSiteSettings(
  deps: SiteSettingsDependencies,
  actor: AdminActor,
  type: SiteAuditType,
  change: (current: StoredSiteSettings) => {
    readonly next: Omit<StoredSiteSettings, 'version'>;
    readonly changes: SiteAuditEntry['changes'];
  },
): Promise<{ readonly settings: SiteSettings; readonly previous: StoredSiteSettings }> {
  for (let attempt = 0; attempt < saveAttempts; attempt++) {
    const current = (await deps.store.get()) ?? { version: 0 };
    const { next, changes } = change(current);
    if (Object.keys(changes).length === 0) return { settings: resolveSiteSettings(current, deps.defaultMfaPolicy), previous: current };
    const at = new Date(deps.clock.now()).toISOString();
    const record: StoredSiteSettings = { ...next, version: current.version + 1, updatedAt: at, updatedBy: actor };
    if (await deps.store.save(record, { type, actor, at, changes })) {
      return { settings: resolveSiteSettings(record, deps.defaultMfaPolicy), previous: current };
    }
  }
  throw new ConflictRequestError('The settings were changed by someone else at the same time; try again.');
}

/** Behaviour SITE-1, SITE-2: title and MFA policy; the change counts from the next request that reads them. */
export async function updateSiteSettings(
  deps: SiteSettingsDependencies,
  actor: AdminActor,
  changes: SiteSettingsChanges,
): Promise<SiteSettings> {
  const { settings } = await changeSiteSettings(deps, actor, 'site.settings.update', (current) => {
    const { title: _title, mfaPolicy: _policy, version: _version, ...rest } = current;
    const title = changes.title !== undefined ? changes.title : current.title;
    const mfaPolicy = changes.mfaPolicy !== undefined ? (changes.mfaPolicy ?? undefined) : current.mfaPolicy;
    const diff: Record<string, { from: unknown; to: unknown }> = {};
    if (title !== current.title) diff.title = { from: current.title ?? null, to: title ?? null };
    if (mfaPolicy !== current.mfaPolicy) diff.mfa_policy = { from: current.mfaPolicy ?? null, to: mfaPolicy ?? null };
    return {
      next: { ...rest, ...(title !== undefined ? { title } : {}), ...(mfaPolicy !== undefined ? { mfaPolicy } : {}) },
      changes: diff,
    };
  });
  return settings;
}
