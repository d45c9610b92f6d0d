/** What the dashboard calls: the admin API's own core dependencies, nothing of its own (issue 14). */
import type { PasskeyDependencies } from '../../core/account/passkeys';
import type { PasswordResetDependencies } from '../../core/account/password-reset';
import type { ActivityReader } from '../../core/admin/activity';
import type { AuditLogStore } from '../../core/admin/audit';
import type { AdminDependencies } from '../../core/admin/ports';
import type { ApiKeyCreateDependencies } from '../../core/api-keys/ports';
import type { SessionStore } from '../session';

export interface DashboardDependencies {
  readonly admin: AdminDependencies;
  readonly sessions: SessionStore;
  readonly apiKeys: ApiKeyCreateDependencies;
  readonly audit: AuditLogStore;
  readonly activity: ActivityReader;
  readonly passkeys: () => PasskeyDependencies;
  readonly passwordReset: () => PasswordResetDependencies;
}
