/**
 * The account flows of a container (issue 12): second factor at sign-in, failed-password
 * ceiling, email verification and password reset, wired to the DynamoDB stores, the hasher,
 * the mailer, the clock and randomness.
 */
import { DynamoChallengeStore, DynamoVerificationStore } from '../adapters/dynamodb/one-time-code-store';
import { DynamoPasswordAttempts, DynamoSendRate } from '../adapters/dynamodb/rate-stores';
import { DynamoResetLinkStore } from '../adapters/dynamodb/reset-link-store';
import type { EmailVerificationDependencies } from '../core/account/email-verification';
import type { PasswordSignInDependencies } from '../core/account/password-attempts';
import type { PasswordChangeDependencies } from '../core/account/password-change';
import type { PasswordResetDependencies } from '../core/account/password-reset';
import type { SecondFactorDependencies } from '../core/account/second-factor';
import type { User } from '../core/model';
import { accountPaths } from '../core/account/paths';
import { getRuntime, perContainer } from './base';
import { getMailer } from './mail';
import { getOAuth } from './oauth';
import { getStorage } from './storage';

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
  const { clock, random } = getRuntime();
  const { users, hasher } = getOAuth();
  return { findUserByEmail: (email) => users.findByEmail(email), hasher, attempts: getStores().passwordAttempts, clock, random };
}

export function getSecondFactor(): SecondFactorDependencies & { readonly currentUser: (id: string) => Promise<User | undefined> } {
  const { config, clock, random } = getRuntime();
  const stores = getStores();
  return {
    challenges: stores.challenges,
    sendRate: stores.sendRate,
    hasher: getOAuth().hasher,
    mailer: getMailer(),
    clock,
    random,
    maxAttempts: config.mfaOtpMaxAttempts,
    // Strongly consistent: a password or address change a moment ago must count.
    currentUser: (id) => stores.resetLinks.currentUser(id),
    markEmailVerified: (userId, email, at) => stores.verification.markVerified(userId, email, at),
  };
}

export function getEmailVerification(): EmailVerificationDependencies {
  const { config, clock, random } = getRuntime();
  const stores = getStores();
  return { codes: stores.verification, sendRate: stores.sendRate, hasher: getOAuth().hasher, mailer: getMailer(), clock, random, maxAttempts: config.mfaOtpMaxAttempts };
}

export function getPasswordChange(): PasswordChangeDependencies {
  const { clock, log } = getRuntime();
  const { sessions, tokens } = getOAuth();
  return { sessions, tokens, mailer: getMailer(), clock, log };
}

export function getPasswordReset(): PasswordResetDependencies & { readonly findUserByEmail: (email: string) => Promise<User | undefined> } {
  const { config, random } = getRuntime();
  const { users, hasher } = getOAuth();
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
export const getAccountUsers = () => getStores().resetLinks;
