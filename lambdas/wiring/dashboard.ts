/**
 * The dashboard's handlers (behaviour DASH-1..DASH-6): one router (lambdas/presentation/dashboard/router.ts) behind three
 * functions, so each function bundles only the AWS clients its route rows call (lambdas/routes.ts):
 * the pages (GET) neither SES nor S3, the form posts SES, the logo row S3. What only some rows
 * use (mail, the logo's storage) is passed in by their handler files; esbuild leaves out of a
 * bundle the wiring a handler does not name. When one function served every row, parsing those
 * clients was a measurable share of the pages' import CPU on Node 24 (figures in bench/README.md).
 */
import type { PasskeyDependencies } from '../core/account/passkeys';
import type { AdminDependencies } from '../core/admin/ports';
import type { PasswordResetDependencies } from '../core/account/password-reset';
import type { Notifier } from '../core/ports';
import type { LogoDependencies } from '../core/site/logo';
import { dashboard } from '../presentation/dashboard/router';
import { DynamoSigningKeyTimes } from '../adapters/dynamodb/signing-key-times';
import { getAdminWithoutMail } from './admin';
import { getApiKeyAdmin } from './api-keys';
import { getAuditLog, getServiceCounts, getTokenStats } from './audit';
import { httpHandler } from './handler';
import { getSessions, getTokenStore, getUsers } from './repositories';
import { getBrand, getSite } from './site';
import { DynamoShownOnceStore } from '../adapters/dynamodb/shown-once-store';
import { perContainer } from './container';
import { getStorage } from './storage';

/** The signing key's times for the overview, as the rotation job records them (behaviour DASH-7). */
const getSigningKeyTimes = /* @__PURE__ */ perContainer(() => new DynamoSigningKeyTimes(getStorage().db, getStorage().tables.main));

/** The secrets a form keeps for one showing (behaviour DASH-13). */
const getShownOnce = /* @__PURE__ */ perContainer(() => new DynamoShownOnceStore(getStorage().db, getStorage().tables.ephemeral));

/** What only some of the dashboard's rows call; a row without one never reaches the pages that use it. */
export interface DashboardRowParts {
  /** The admin API's dependencies with the mail a password change sends (wiring/admin.ts getAdmin). */
  readonly admin?: () => AdminDependencies;
  /** The API key notice (POST /dashboard/{proxy+}); reset links and passkey notices come with their own parts. */
  readonly notifier?: () => Notifier<'api-key-created'>;
  readonly passkeys?: () => PasskeyDependencies;
  readonly passwordReset?: () => PasswordResetDependencies;
  /** The logo's storage (POST /dashboard/logo, the only row granted branding/*). */
  readonly logo?: () => LogoDependencies;
}

/** A part this function's rows do not call: reaching it is a routing bug, answered as a 500. */
const notOnThisRow = (part: string) => (): never => {
  throw new Error(`The dashboard's ${part} is not wired into this function: its route rows do not call it (lambdas/routes.ts).`);
};

const notifierOff: Notifier<'api-key-created'> = { notify: notOnThisRow('notifier') };

export function dashboardHandler(parts: DashboardRowParts) {
  return httpHandler((event, container) =>
    dashboard(event, container, {
      admin: parts.admin?.() ?? {
        ...getAdminWithoutMail(),
        notifyPasswordChanged: notOnThisRow('password-change notice'),
        notifySecretRotated: notOnThisRow('secret-rotation notice'),
      },
      sessions: getSessions(),
      currentUser: (id) => getUsers().current(id),
      apiKeys: { ...getApiKeyAdmin(), notifier: parts.notifier?.() ?? notifierOff, issuer: container.config.baseUrl },
      audit: getAuditLog(),
      activity: getTokenStore(),
      tokenStats: getTokenStats(),
      serviceCounts: getServiceCounts(),
      signingKeyTimes: getSigningKeyTimes(),
      passkeys: parts.passkeys ?? notOnThisRow('passkey removal'),
      passwordReset: parts.passwordReset ?? notOnThisRow('password reset'),
      mfaPolicy: async () => (await getSite().current()).mfaPolicy,
      site: () => getSite().deps,
      logo: parts.logo ?? notOnThisRow('logo storage'),
      forgetSiteDisplay: () => getSite().forget(),
      brand: getBrand,
      assetBaseUrl: container.config.jwksCdnBaseUrl,
      shownOnce: getShownOnce(),
    }),
  );
}
