/**
 * POST /dashboard/{proxy+}: the dashboard's forms (behaviour DASH-1..DASH-6), server-rendered
 * over the admin API's core functions (lambdas/presentation/dashboard/router.ts). They write, hash and mail;
 * the logo has its own row and function (dashboard-logo.ts), the pages theirs (dashboard-pages.ts).
 */
import { getPasswordReset } from '../wiring/account';
import { getAdmin } from '../wiring/admin';
import { dashboardHandler } from '../wiring/dashboard';
import { apiKeyCreatedMail } from '../presentation/mail/templates/api-key-created';
import { getNotifier } from '../wiring/mail';
import { getPasskeys } from '../wiring/passkeys';

export const handler = dashboardHandler({
  admin: getAdmin,
  notifier: () => getNotifier({ 'api-key-created': apiKeyCreatedMail }),
  passkeys: getPasskeys,
  passwordReset: getPasswordReset,
});
