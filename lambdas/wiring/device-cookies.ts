/**
 * The device cookies of a container (behaviour PWFAIL-3..PWFAIL-6): the key set, read from
 * Secrets Manager (DEVICE_COOKIE_KEY_SECRET_ARN, set by the construct on the rows that say
 * `deviceCookies`) or the local file (DEVICE_COOKIE_KEY_FILE), cached for a few minutes so a
 * rotated secret is picked up without a read per request; and the devices' records.
 */
import { deviceKeySourceFromEnv } from '../adapters/device-cookie-keys';
import { DynamoDeviceStanding } from '../adapters/dynamodb/rate-stores';
import { cachedLoader } from '../core/cache';
import { renewDeviceCookie, type DeviceCookieDependencies } from '../http/device-cookie';
import { startSession } from '../http/session';
import type { SignInBrowserDependencies } from '../presentation/sign-in';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';
import { getSessions } from './repositories';
import { getBrand } from './site';
import { getStorage } from './storage';

/** How long a container keeps the key set before reading it again: a rotation reaches every container within this. */
export const deviceKeyCacheMs = 5 * 60_000;

export const getDeviceCookies = /* @__PURE__ */ perContainer((env): DeviceCookieDependencies => {
  const { clock, log } = getContainer();
  const source = deviceKeySourceFromEnv(env, awsClientSettings(env));
  if (!source)
    log.warn('no device-cookie key configured (DEVICE_COOKIE_KEY_SECRET_ARN or DEVICE_COOKIE_KEY_FILE): no device keeps its standing');
  const { db, tables } = getStorage();
  return {
    keys: source ? cachedLoader(source, deviceKeyCacheMs, clock) : undefined,
    store: new DynamoDeviceStanding(db, tables.ephemeral),
  };
});

/** The browser's side of a sign-in that completes here (lambdas/presentation/sign-in.ts): the session and device cookies. */
export const getSignInBrowser = (): SignInBrowserDependencies => ({
  startSession: (event, container, user, amr) => startSession(event, container, getSessions(), user, amr),
  renewDevice: (event, container, userId) => renewDeviceCookie(event, container, getDeviceCookies(), userId),
  brand: getBrand,
});
