/**
 * Password sign-in behind the failed-password ceilings (behaviour PWFAIL-1..PWFAIL-5), for the two
 * password sign-in functions only: it brings the background invoker (and with it the Lambda
 * client) that hands the owner's notice off the request path, which no other function needs.
 */
import type { Context } from 'aws-lambda';
import { runWithinDeadline } from '../adapters/aws/invocation-deadline';
import { DynamoPasswordAttempts } from '../adapters/dynamodb/rate-stores';
import { sendCeilingNotice, type PasswordSignInDependencies } from '../core/account/password-attempts';
import { accountPaths } from '../core/account/paths';
import { metricNames } from '../core/metrics';
import type { LambdaHandler } from '../http/handler';
import { dispatchInBackground, isBackgroundInvocation, type BackgroundJobOf } from './background';
import { getContainer, perContainer } from './container';
import { getDeviceCookies } from './device-cookies';
import { wrongPasswordsMail } from '../presentation/mail/templates/wrong-passwords';
import { getNotifier } from './mail';
import { getHasher, getUsers } from './repositories';
import { getStorage } from './storage';

const getAttempts = perContainer(() => {
  const { db, tables } = getStorage();
  return new DynamoPasswordAttempts(db, tables.ephemeral);
});

export function getPasswordSignIn(): PasswordSignInDependencies {
  const { clock, random, log, metrics } = getContainer();
  const users = getUsers();
  const hasher = getHasher();
  return {
    findUserByEmail: (email) => users.findByEmail(email),
    hasher,
    attempts: getAttempts(),
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
    notifier: getNotifier({ 'wrong-passwords': wrongPasswordsMail }),
    forgotPasswordUrl: `${config.baseUrl}${accountPaths.forgotPassword}`,
  };
  // The user id, never the address: which account strangers are guessing at (behaviour PWFAIL-8).
  const { outcome, userId } = await sendCeilingNotice(deps, job.email, job.untilEpoch);
  log.info('failed-password ceiling notice handled', { outcome, ...(userId ? { userId } : {}) });
}

/**
 * The export of a password sign-in function: the endpoint, or, when the function invoked itself,
 * the owner's notice of a tripped ceiling (behaviour PWFAIL-5), bounded by the invocation's deadline
 * like every request.
 */
export const withCeilingNoticeJob = (endpoint: LambdaHandler): LambdaHandler =>
  (async (event: unknown, context: Context) =>
    isBackgroundInvocation(event, 'password-ceiling-mail')
      ? runWithinDeadline(context?.getRemainingTimeInMillis?.(), () => runCeilingNoticeJob(event.backgroundJob))
      : endpoint(event as never, context)) as LambdaHandler;
