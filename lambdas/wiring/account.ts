/**
 * The account flows of a container (issue 12): second factor at sign-in, failed-password
 * ceiling, email verification and password reset, wired to the DynamoDB stores, the hasher,
 * the mailer, the clock and randomness.
 */
import { DynamoChallengeStore, DynamoVerificationStore } from '../adapters/dynamodb/one-time-code-store';
import { DynamoPasswordAttempts, DynamoSendRate } from '../adapters/dynamodb/rate-stores';
import { DynamoResetLinkStore } from '../adapters/dynamodb/reset-link-store';
import type { EmailVerificationDependencies } from '../core/account/email-verification';
import { sendCeilingNotice, type PasswordSignInDependencies } from '../core/account/password-attempts';
import { metricNames } from '../core/metrics';
import type { PasswordChangeDependencies } from '../core/account/password-change';
import type { PasswordResetDependencies } from '../core/account/password-reset';
import type { SecondFactorDependencies } from '../core/account/second-factor';
import type { User } from '../core/model';
import { accountPaths } from '../core/account/paths';
import { getContainer, perContainer } from './container';
import { getMailer } from './mail';
import { getHasher, getSessions, getTokenStore, getUsers } from './repositories';
import { getStorage } from './storage';
import { getSite } from './site';
import type { AccountCallerDependencies } from '../http/account-caller';
import { getBearerDependencies } from './bearer';
import { dispatchInBackground, type BackgroundJobOf } from './background';
import { getDeviceCookies } from './device-cookies';

const getStores = perContainer(() => {
  const { db, tables } = getStorage();
  return {
    challenges: new DynamoChallengeStore(db, tables.ephemeral),
    verification: new DynamoVerificationStore(db, tables),
    sendRate: new DynamoSendRate(db, tables.ephemeral),
    passwordAttempts: new DynamoPasswordAttempts(db, tables.ephemeral),
    resetLinks: new DynamoResetLinkStore(db, tables),
  };
});

export function getPasswordSignIn(): PasswordSignInDependencies {
  const { clock, random, log, metrics } = getContainer();
  const users = getUsers();
  const hasher = getHasher();
  const stores = getStores();
  return {
    findUserByEmail: (email) => users.findByEmail(email),
    hasher,
    attempts: stores.passwordAttempts,
    devices: getDeviceCookies().store,
    clock,
    random,
    // Known address or not, the same work on the request path: the lookup and the mail happen in the job (behaviour PWFAIL-5).
    ceilingReached: async (email, untilEpoch) => {
      metrics.count(metricNames.passwordCeilingReached);
      log.warn('failed-password ceiling reached', { until: new Date(untilEpoch * 1000).toISOString() });
      await dispatchInBackground({ kind: 'password-ceiling-mail', email, untilEpoch }, runCeilingNoticeJob).catch((error: Error) =>
        log.error('failed-password ceiling notice not handed over', { error: error.name }),
      );
    },
  };
}

/** The background half of the ceiling notice (behaviour PWFAIL-5): the sign-in functions run it when they invoke themselves. */
export async function runCeilingNoticeJob(job: BackgroundJobOf<'password-ceiling-mail'>): Promise<void> {
  const { config, log } = getContainer();
  const users = getUsers();
  const deps = {
    findUserByEmail: (email: string) => users.findByEmail(email),
    mailer: getMailer(),
    forgotPasswordUrl: `${config.baseUrl}${accountPaths.forgotPassword}`,
  };
  const outcome = await sendCeilingNotice(deps, job.email, job.untilEpoch);
  log.info('failed-password ceiling notice handled', { outcome });
}

export function getSecondFactor(): SecondFactorDependencies & { readonly currentUser: (id: string) => Promise<User | undefined> } {
  const { config, clock, random } = getContainer();
  const stores = getStores();
  return {
    challenges: stores.challenges,
    sendRate: stores.sendRate,
    hasher: getHasher(),
    mailer: getMailer(),
    clock,
    random,
    maxAttempts: config.mfaOtpMaxAttempts,
    mfaPolicy: async () => (await getSite().current()).mfaPolicy,
    // Strongly consistent: a password or address change a moment ago must count.
    currentUser: (id) => stores.resetLinks.currentUser(id),
    markEmailVerified: (userId, email, at) => stores.verification.markVerified(userId, email, at),
  };
}

export function getEmailVerification(): EmailVerificationDependencies {
  const { config, clock, random } = getContainer();
  const stores = getStores();
  return {
    codes: stores.verification,
    sendRate: stores.sendRate,
    hasher: getHasher(),
    mailer: getMailer(),
    clock,
    random,
    maxAttempts: config.mfaOtpMaxAttempts,
  };
}

export function getPasswordChange(): PasswordChangeDependencies {
  const { clock, log } = getContainer();
  const sessions = getSessions();
  const tokens = getTokenStore();
  return { sessions, tokens, mailer: getMailer(), clock, log };
}

export function getPasswordReset(): PasswordResetDependencies & { readonly findUserByEmail: (email: string) => Promise<User | undefined> } {
  const { config, random } = getContainer();
  const users = getUsers();
  const hasher = getHasher();
  return {
    ...getPasswordChange(),
    links: getStores().resetLinks,
    hasher,
    random,
    baseUrl: config.baseUrl,
    resetPagePath: accountPaths.resetPassword,
    findUserByEmail: (email) => users.findByEmail(email),
  };
}

export const getSendRate = () => getStores().sendRate;
/** Who calls the user's own account endpoints (lambdas/http/account-caller.ts). */
export const getAccountCaller = (): AccountCallerDependencies => {
  const users = getStores().resetLinks;
  return { bearer: getBearerDependencies(), sessions: getSessions(), currentUser: (id) => users.currentUser(id) };
};
