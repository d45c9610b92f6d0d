/**
 * The device cookie as the sign-in pages use it (behaviour PWFAIL-3, PWFAIL-6;
 * lambdas/core/account/device-cookies.ts): read before a password is counted, and replaced by a
 * new one whenever a sign-in completes in this browser (password, password and code, passkey).
 *
 * `HttpOnly` (no script reads it), `SameSite=Strict` (only our own pages' posts carry it: every
 * sign-in is a same-origin post), `Path=/`, and `Secure` with the `__Host-` prefix except for an
 * http issuer on a loopback host (npm start), like the session cookie (SIGNIN-4). It outlives
 * sign-out: standing belongs to the browser, not to a session.
 *
 * Everything here is best effort: a key that cannot be read or a record that cannot be written
 * costs the browser its standing, never the sign-in.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import {
  deviceCookieLifetimeSeconds,
  openDeviceCookie,
  sealDeviceCookie,
  type DeviceClaim,
  type DeviceKeySet,
} from '../core/account/device-cookies';
import { newSecret } from '../core/ids';
import type { Container } from './container';
import { readCookie, secureCookies } from './cookies';
import type { DeviceStandingStore } from '../core/account/ports';

export interface DeviceCookieDependencies {
  /** Undefined when the deployment has no key configured: no device gets standing. */
  readonly keys: (() => Promise<DeviceKeySet>) | undefined;
  readonly store: DeviceStandingStore;
}

type CookieEvent = Pick<APIGatewayProxyEvent, 'headers' | 'multiValueHeaders'>;

export function deviceCookieName(issuer: string): string {
  return secureCookies(issuer) ? '__Host-device' : 'device';
}

async function keysOf(container: Container, deps: DeviceCookieDependencies): Promise<DeviceKeySet | undefined> {
  if (!deps.keys) return undefined;
  try {
    return await deps.keys();
  } catch (error) {
    // Never a reason to fail a sign-in: the browser is counted as a stranger meanwhile.
    container.log.error('device-cookie key unavailable', { error: (error as Error).name });
    return undefined;
  }
}

const nowEpoch = (container: Container) => Math.floor(container.clock.now() / 1000);

/** What the request's device cookie says, when it is genuine and unexpired; its standing is the store's to decide. */
export async function presentedDevice(
  event: CookieEvent,
  container: Container,
  deps: DeviceCookieDependencies,
): Promise<DeviceClaim | undefined> {
  const value = readCookie(event, deviceCookieName(container.config.baseUrl));
  if (!value) return undefined;
  const keys = await keysOf(container, deps);
  if (!keys) return undefined;
  const claim = openDeviceCookie(keys, value, nowEpoch(container));
  if (!claim) container.log.info('device cookie ignored', { reason: 'not sealed by a current key, altered or expired' });
  return claim;
}

/**
 * After a completed sign-in of `userId`: the Set-Cookie of a new device cookie, whose record
 * replaces the one this browser presented (so a copy of the old cookie dies now). Undefined when
 * no key is configured or something failed (logged).
 */
export async function renewDeviceCookie(
  event: CookieEvent,
  container: Container,
  deps: DeviceCookieDependencies,
  userId: string,
): Promise<string | undefined> {
  const keys = await keysOf(container, deps);
  if (!keys) return undefined;
  const now = nowEpoch(container);
  const previous = openDeviceCookie(keys, readCookie(event, deviceCookieName(container.config.baseUrl)), now);
  const claim: DeviceClaim = { userId, nonce: newSecret(container.random), expiresAtEpoch: now + deviceCookieLifetimeSeconds };
  try {
    await deps.store.create(claim.nonce, userId, claim.expiresAtEpoch, new Date(container.clock.now()).toISOString());
  } catch (error) {
    container.log.warn('device cookie not issued', { error: (error as Error).name });
    return undefined;
  }
  if (previous) {
    await deps.store
      .remove(previous.nonce)
      .catch((error: Error) => container.log.warn('replaced device record not removed', { error: error.name }));
  }
  const secure = secureCookies(container.config.baseUrl) ? '; Secure' : '';
  return `${deviceCookieName(container.config.baseUrl)}=${sealDeviceCookie(keys, claim)}; Max-Age=${deviceCookieLifetimeSeconds}; Path=/; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * The response with more Set-Cookie lines. Two cookies need API Gateway's `multiValueHeaders`
 * (a header map holds one value per name), so every Set-Cookie moves there, the response's own first.
 */
export function withSetCookies(result: APIGatewayProxyResult, cookies: readonly (string | undefined)[]): APIGatewayProxyResult {
  const added = cookies.filter((cookie): cookie is string => cookie !== undefined);
  if (added.length === 0) return result;
  const headers = { ...result.headers };
  const multiValueHeaders = { ...result.multiValueHeaders };
  const setCookies: (string | number | boolean)[] = [];
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() !== 'set-cookie') continue;
    setCookies.push(headers[name]!);
    delete headers[name];
  }
  for (const name of Object.keys(multiValueHeaders)) {
    if (name.toLowerCase() !== 'set-cookie') continue;
    setCookies.push(...multiValueHeaders[name]!);
    delete multiValueHeaders[name];
  }
  return { ...result, headers, multiValueHeaders: { ...multiValueHeaders, 'Set-Cookie': [...setCookies, ...added] } };
}
