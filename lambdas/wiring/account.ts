/**
 * The account flows of a container: second factor at sign-in, email verification
 * and password reset, wired to the DynamoDB stores, the hasher, the mailer, the clock and
 * randomness. The failed-password ceiling is in password-sign-in.ts.
 */
import { DynamoChallengeStore, DynamoVerificationStore } from '../adapters/dynamodb/one-time-code-store';
import { DynamoSendRate } from '../adapters/dynamodb/rate-stores';
import { DynamoResetLinkStore } from '../adapters/dynamodb/reset-link-store';
import { digest } from '../adapters/dynamodb/keys/key-parts';
import type { EmailConfirmationDependencies, EmailVerificationDependencies } from '../core/account/email-verification';
import type { PasswordChangeDependencies } from '../core/account/password-change';
import type { PasswordResetDependencies } from '../core/account/password-reset';
import type { ChallengeCheckDependencies, SecondFactorDependencies } from '../core/account/second-factor';
import type { MailedCodeDependencies } from '../core/account/stored-code';

type MailedCodeChecks = Omit<MailedCodeDependencies, 'sendRate' | 'notifier'>;
import type { User } from '../core/model';
import { accountPaths } from '../core/account/paths';
import { getContainer, perContainer } from './container';
import type { NoticeKind } from '../core/notices';
import type { Notifier } from '../core/ports';
import { emailConfirmationCodeMail } from '../presentation/mail/templates/email-confirmation-code';
import { passwordChangedMail } from '../presentation/mail/templates/password-changed';
import { passwordResetLinkMail } from '../presentation/mail/templates/password-reset-link';
import { removedAfterResetMail } from '../presentation/mail/templates/removed-after-reset';
import { signInCodeMail } from '../presentation/mail/templates/sign-in-code';
import { getNotifier } from './mail';
import { getHasher, getSessions, getTokenStore, getUsers } from './repositories';
import { getStorage } from './storage';
import { getSite } from './site';
import type { AccountCallerDependencies } from '../http/account-caller';
import { getBearerDependencies } from './bearer';
import { getPasskeyStore } from './passkeys';
import { getApiKeyStore } from './api-keys';

// One getter per store, so a door bundles only the stores it reads: the sign-in doors that send a
// code never check one, and carry neither the reset links nor address verification.
const getChallenges = /* @__PURE__ */ perContainer(() => new DynamoChallengeStore(getStorage().db, getStorage().tables.ephemeral));
const getVerification = /* @__PURE__ */ perContainer(() => new DynamoVerificationStore(getStorage().db, getStorage().tables));
export const getSendRate = /* @__PURE__ */ perContainer(() => new DynamoSendRate(getStorage().db, getStorage().tables.ephemeral));
const getResetLinks = /* @__PURE__ */ perContainer(() => new DynamoResetLinkStore(getStorage().db, getStorage().tables));

/** Checking mailed codes (core/account/stored-code.ts), for sign-in challenges and address verification alike. */
function getCodeChecks(): MailedCodeChecks {
  const { config, clock, random } = getContainer();
  return { hasher: getHasher(), clock, random, maxAttempts: config.mfaOtpMaxAttempts };
}

/** Sending them too, with the template of the one code mail each sends. */
function getMailedCodes<K extends NoticeKind>(notifier: Notifier<K>): MailedCodeDependencies<K> {
  return { ...getCodeChecks(), sendRate: getSendRate(), notifier };
}

/** The code's own door (behaviour MFA-4): it checks a challenge's code and sends none, so it holds no mailer. */
export function getChallengeChecks(): ChallengeCheckDependencies {
  const resetLinks = getResetLinks();
  const verification = getVerification();
  return {
    ...getCodeChecks(),
    challenges: getChallenges(),
    // Strongly consistent: a password or address change a moment ago must count.
    currentUser: (id) => resetLinks.currentUser(id),
    markEmailVerified: (userId, email, at) => verification.markVerified(userId, email, at),
  };
}

/** The doors that send a code (behaviour MFA-2) and never check one: the code's own door takes getChallengeChecks. */
export function getSecondFactor(): SecondFactorDependencies {
  return {
    challenges: getChallenges(),
    ...getMailedCodes(getNotifier({ 'sign-in-code': signInCodeMail })),
    mfaPolicy: async () => (await getSite().current()).mfaPolicy,
  };
}

export const getEmailVerification = (): EmailVerificationDependencies => ({
  ...getMailedCodes(getNotifier({ 'email-confirmation-code': emailConfirmationCodeMail })),
  codes: getVerification(),
});

/** Confirming the address (behaviour VERIFY-4) sends nothing, so it holds no mailer. */
export const getEmailConfirmation = (): EmailConfirmationDependencies => ({ ...getCodeChecks(), codes: getVerification() });

export function getPasswordChange(): PasswordChangeDependencies {
  const { config, clock, log } = getContainer();
  const sessions = getSessions();
  const tokens = getTokenStore();
  return {
    sessions,
    tokens,
    // The reset's mails too: getPasswordReset extends these dependencies.
    notifier: getNotifier({
      'password-changed': passwordChangedMail,
      'password-reset-link': passwordResetLinkMail,
      'removed-after-reset': removedAfterResetMail,
    }),
    clock,
    log,
    passkeys: getPasskeyStore(),
    apiKeys: getApiKeyStore(),
    baseUrl: config.baseUrl,
  };
}

export function getPasswordReset(): PasswordResetDependencies & { readonly findUserByEmail: (email: string) => Promise<User | undefined> } {
  const { config, random } = getContainer();
  const users = getUsers();
  const hasher = getHasher();
  return {
    ...getPasswordChange(),
    links: getResetLinks(),
    passkeys: getPasskeyStore(),
    apiKeys: getApiKeyStore(),
    hasher,
    random,
    baseUrl: config.baseUrl,
    resetPagePath: accountPaths.resetPassword,
    findUserByEmail: (email) => users.findByEmail(email),
  };
}

/** The send-rate subject of reset links to an address: its digest, so no address is stored in the ephemeral table. */
export const resetLinkSendSubject = (email: string): string => `RESET#${digest(email)}`;
/** Who calls the user's own account endpoints (lambdas/http/account-caller.ts). */
export const getAccountCaller = (): AccountCallerDependencies => {
  const users = getResetLinks();
  return { bearer: getBearerDependencies(), sessions: getSessions(), currentUser: (id) => users.currentUser(id) };
};
