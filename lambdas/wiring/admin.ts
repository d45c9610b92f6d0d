/**
 * The admin API's dependencies, built once per container from the OAuth services.
 * Reads go to the repositories directly, never through the client or scope caches,
 * so an admin sees its own writes at once.
 */
import { DynamoScopeRepository } from '../adapters/dynamodb/scope-repository';
import { adminScope } from '../core/scope';
import type { AdminDependencies, AdminMailParts } from '../core/admin/ports';
import { mailAdminsOfRotation } from '../core/admin/secret-rotation-mail';
import { notifyPasswordChanged } from '../core/account/password-change';
import { getPasswordChange } from './account';
import { getApiKeyStore } from './api-keys';
import { getAuditEntryWriter } from './audit';
import { getContainer, perContainer } from './container';
import { getClientRepository, getEnvironments, getHasher, getSessions, getTokenStore, getUsers } from './repositories';
import { getStorage } from './storage';
import { getNotifier } from './mail';
import { clientSecretRotatedMail } from '../presentation/mail/templates/client-secret-rotated';
import { getPasskeyStore } from './passkeys';
import { getTrustedIssuerStore } from './trusted-issuers';

/**
 * The admin dependencies but the mail an admin's password change and a secret rotation send: for
 * the functions that send no mail (the dashboard's pages and logo row), which then bundle no SES
 * client (lambdas/wiring/dashboard.ts).
 */
export const getAdminWithoutMail = /* @__PURE__ */ perContainer((): Omit<AdminDependencies, AdminMailParts> => {
  const { config, clock, random } = getContainer();
  const { db, tables } = getStorage();
  return {
    users: getUsers(),
    environments: getEnvironments(),
    scopes: new DynamoScopeRepository(db, tables.main, tables.activity),
    clients: getClientRepository(),
    sessions: getSessions(),
    tokens: getTokenStore(),
    auditLog: getAuditEntryWriter(),
    hasher: getHasher(),
    clock,
    random,
    clientIdPrefix: config.clientIdPrefix,
    adminScope,
    dcrEnvironmentId: config.dcr.environmentId,
    // Behaviour ADMIN-19: the local server's jwks_uri may be plain http on loopback.
    allowLoopbackJwksUri: config.localMode,
    // Behaviour KEY-12 (ungranted scopes leave the client's keys) and user deletion removing the user's keys.
    apiKeys: getApiKeyStore(),
    passkeys: getPasskeyStore(),
    trustedIssuers: getTrustedIssuerStore(),
  };
});

/** Behaviour ADMIN-24: a rotated client secret is mailed to the admins. */
const notifySecretRotated: AdminDependencies['notifySecretRotated'] = (rotation) => {
  const { config, log } = getContainer();
  const notifier = getNotifier({ 'client-secret-rotated': clientSecretRotatedMail });
  return mailAdminsOfRotation(
    { admins: getUsers(), users: getUsers(), clients: getClientRepository(), notifier, log, issuer: config.baseUrl },
    rotation,
  );
};

/** The admin API's secret rotation: the one mail it sends, without the password change's (behaviour ADMIN-24). */
export const getSecretRotation = /* @__PURE__ */ perContainer(
  (): Omit<AdminDependencies, 'notifyPasswordChanged'> => ({
    ...getAdminWithoutMail(),
    notifySecretRotated,
  }),
);

export const getAdmin = /* @__PURE__ */ perContainer(
  (): AdminDependencies => ({
    ...getAdminWithoutMail(),
    notifySecretRotated,
    // Behaviour RESET-10: any password change mails the user (revocation and session deletion are in updateUser).
    notifyPasswordChanged: async (user, addresses) => {
      await notifyPasswordChanged(getPasswordChange(), user, addresses, 'admin');
    },
  }),
);
