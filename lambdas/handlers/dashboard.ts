/**
 * /dashboard and everything below it (issue 14; behaviour DASH-1..DASH-6): the admin dashboard,
 * server-rendered forms over the admin API's core functions (lambdas/http/dashboard/router.ts).
 */
import { dashboard } from '../http/dashboard/router';
import { getPasswordReset } from '../wiring/account';
import { getAdmin } from '../wiring/admin';
import { getApiKeyAdmin } from '../wiring/api-keys';
import { getAuditLog } from '../wiring/audit';
import { httpHandler } from '../wiring/handler';
import { getMailer } from '../wiring/mail';
import { getPasskeys } from '../wiring/passkeys';
import { getSessions, getTokenStore, getUsers } from '../wiring/repositories';
import { getBrand, getSite } from '../wiring/site';
import { getLogo } from '../wiring/site-assets';

export const handler = httpHandler((event, container) =>
  dashboard(event, container, {
    admin: getAdmin(),
    sessions: getSessions(),
    currentUser: (id) => getUsers().current(id),
    apiKeys: { ...getApiKeyAdmin(), mailer: getMailer(), issuer: container.config.baseUrl },
    audit: getAuditLog(),
    activity: getTokenStore(),
    passkeys: getPasskeys,
    passwordReset: getPasswordReset,
    mfaPolicy: async () => (await getSite().current()).mfaPolicy,
    site: () => getSite().deps,
    logo: getLogo,
    forgetSiteDisplay: () => getSite().forget(),
    brand: getBrand,
    assetBaseUrl: container.config.jwksCdnBaseUrl,
  }),
);
