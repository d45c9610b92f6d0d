/** What the dashboard calls: the admin API's own core dependencies, nothing of its own (behaviour DASH-5). */
import type { PasskeyDependencies } from '../../core/account/passkeys';
import type { PasswordResetDependencies } from '../../core/account/password-reset';
import type { ActivityReader, AdminDependencies, AuditLogStore } from '../../core/admin/ports';
import type { SigningKeyTimesReader } from '../../core/admin/signing-key';
import type { ServiceCountsReader, TokenStatsReader } from '../../core/admin/token-stats';
import type { ShownOnceStore } from '../../core/admin/shown-once';
import type { ApiKeyCreateDependencies } from '../../core/api-keys/create';
import type { MfaPolicy } from '../../config/settings';
import type { User } from '../../core/model';
import type { LogoDependencies } from '../../core/site/logo';
import type { SiteSettingsDependencies } from '../../core/site/settings';
import type { Brand } from '../html';
import type { SessionStore } from '../../http/session';

export interface DashboardDependencies {
  readonly admin: AdminDependencies;
  readonly sessions: SessionStore;
  /** The user as stored now (strongly consistent), for the session check (behaviour RESET-12). */
  readonly currentUser: (id: string) => Promise<User | undefined>;
  readonly apiKeys: ApiKeyCreateDependencies;
  readonly audit: AuditLogStore;
  readonly activity: ActivityReader;
  /** The hourly token counts and the service's counters of the overview and the client page (behaviour DASH-7, DASH-8). */
  readonly tokenStats: TokenStatsReader;
  readonly serviceCounts: ServiceCountsReader;
  /** The signing key's times as the rotation job recorded them (behaviour DASH-7). */
  readonly signingKeyTimes: SigningKeyTimesReader;
  readonly passkeys: () => PasskeyDependencies;
  readonly passwordReset: () => PasswordResetDependencies;
  /** The MFA policy in force (strongly consistent: a tightened policy counts at once). */
  readonly mfaPolicy: () => Promise<MfaPolicy>;
  /** The site settings (lambdas/core/site), as the admin API's settings routes use them. */
  readonly site: () => SiteSettingsDependencies;
  /** The settings and the logo's storage, as the logo routes use them (only the upload row may write branding/*). */
  readonly logo: () => LogoDependencies;
  /** After a change made here: this container's next page shows it (lambdas/wiring/site.ts). */
  readonly forgetSiteDisplay: () => void;
  /** The title and logo for the pages' header (cached a minute per container). */
  readonly brand: () => Promise<Brand>;
  /** Where the logo is served from (JWKS_CDN_BASE_URL). */
  readonly assetBaseUrl: string;
  /** Secrets a form keeps for one showing on the page it redirects to (behaviour DASH-13). */
  readonly shownOnce: ShownOnceStore;
}
