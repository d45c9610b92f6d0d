/**
 * Each route's function loads the AWS SDK client of a service exactly when its route row says it
 * calls that service (lambdas/routes.ts): DynamoDB for a row with tables, SES for `sendsMail`,
 * Secrets Manager for `signs` and `deviceCookies`, Lambda for `invokesSelf`, S3 for `writesSiteAssets`. The SDK is
 * most of a function's import time (README "Cold start"), so no route loads a client it never
 * calls. Each handler is bundled with the stack's own esbuild settings (lib/bundling.ts); esbuild's
 * metafile lists every module that went in and how it is imported. "Loaded" means reachable from
 * the handler through static imports, evaluated when the function starts; a module reached only
 * through `import()` (the SES, S3 and Lambda clients, and Secrets Manager where only the device-cookie key
 * needs it: rarely used by their functions) is evaluated on first use.
 */
import { functionBundling, nativeModules, tracingModules } from '../../lib/bundling';
import { fallbackHandler, type Route, routes } from '../../lambdas/routes';
import { bundleHandler } from '../support/handler-bundles';

interface Packages {
  /** Every npm package in the bundle. */
  readonly bundled: Set<string>;
  /** Those the handler's static imports reach: evaluated at import. */
  readonly loaded: Set<string>;
  /** Those with code in the output (esbuild lists a module it tree-shook to nothing among the inputs too): parsed at import. */
  readonly emitted: Set<string>;
}

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

/** The npm packages a bundle holds, by name. */
async function bundledPackages(handler: string): Promise<Packages> {
  const { inputs, entryPoint, bytesOf } = await bundleHandler(handler);
  const bundled = new Set(
    Object.keys(inputs)
      .map(packageOf)
      .filter((name) => name !== undefined),
  );
  const reached = new Set<string>([entryPoint]);
  for (const path of reached) {
    for (const { path: imported, kind } of inputs[path]?.imports ?? []) if (kind !== 'dynamic-import') reached.add(imported);
  }
  const loaded = new Set([...reached].map(packageOf).filter((name) => name !== undefined));
  const emitted = new Set(
    Object.entries(bytesOf)
      .filter(([, bytes]) => bytes > 0)
      .map(([path]) => packageOf(path))
      .filter((name) => name !== undefined),
  );
  return { bundled, loaded, emitted };
}

const serviceClients = {
  '@aws-sdk/client-dynamodb': (route: Route) => Object.keys(route.storage).length > 0,
  '@aws-sdk/client-ses': (route: Route) => route.sendsMail === true,
  '@aws-sdk/client-secrets-manager': (route: Route) => route.signs === true || route.deviceCookies === true,
  '@aws-sdk/client-lambda': (route: Route) => route.invokesSelf === true,
  '@aws-sdk/client-s3': (route: Route) => route.writesSiteAssets === true,
  '@aws-sdk/client-cloudfront': () => false,
} as const;

/**
 * Imported by their adapters on first use (adapters/ses-mailer.ts, adapters/s3-site-assets.ts,
 * adapters/lambda-invoker.ts); Secrets Manager so where only the device-cookie key needs it
 * (adapters/device-cookie-keys.ts), while the signing routes load it at start.
 */
const loadedOnFirstUse = (name: string, rows: readonly Route[]) =>
  ['@aws-sdk/client-ses', '@aws-sdk/client-s3', '@aws-sdk/client-lambda'].includes(name) ||
  (name === '@aws-sdk/client-secrets-manager' && !rows.some((row) => row.signs));

/** The fallback function answers unknown paths; it calls nothing. */
const fallbackRow = { name: 'Fallback', handler: fallbackHandler, storage: {} } as unknown as Route;
const rowsByHandler = new Map<string, Route[]>();
for (const route of [...routes, fallbackRow]) rowsByHandler.set(route.handler, [...(rowsByHandler.get(route.handler) ?? []), route]);

test.each([...rowsByHandler.keys()])(
  'the %s function loads the SDK client of each service its route rows call, and no other',
  async (handler) => {
    const { bundled, loaded } = await bundledPackages(handler);
    const rows = rowsByHandler.get(handler)!;
    const expected = Object.entries(serviceClients)
      .filter(([, calls]) => rows.some(calls))
      .map(([name]) => name);
    const clientsLoaded = Object.keys(serviceClients).filter((name) => loaded.has(name));
    // SES, S3, Lambda (and the device key's Secrets Manager) are loaded on first use: bundled, not loaded at start.
    expect(clientsLoaded).toEqual(expected.filter((name) => !loadedOnFirstUse(name, rows)));
    expect([...bundled]).toEqual(expect.arrayContaining(expected));
    // Tracing (lambdas/adapters/aws/tracing.ts) is bundled only for a deployment that traces.
    expect(bundled.has('@aws-lambda-powertools/tracer') || bundled.has('aws-xray-sdk-core')).toBe(false);
  },
);

test('the token endpoint, the busiest function, loads the DynamoDB document client, Secrets Manager and jose (the test above sees real bundles)', async () => {
  const { loaded } = await bundledPackages('token');
  for (const name of ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb', '@aws-sdk/client-secrets-manager', 'jose']) {
    expect(loaded.has(name)).toBe(true);
  }
});

test('the tracer is bundled only for a deployment that traces (the tracing prop); test/infra/bundling.test.ts runs it from a package', () => {
  expect(functionBundling({ tracing: false }).externalModules).toEqual(expect.arrayContaining([...tracingModules]));
  expect(functionBundling({ tracing: true }).externalModules).not.toEqual(expect.arrayContaining([...tracingModules]));
  expect(functionBundling({ tracing: true, hashes: true }).externalModules).toEqual([...nativeModules]);
});

test('a mail-sending route bundles the SES client and loads it on first send (forgot-password)', async () => {
  const { loaded, bundled } = await bundledPackages('forgot-password');
  expect(bundled.has('@aws-sdk/client-ses')).toBe(true);
  expect(loaded.has('@aws-sdk/client-ses')).toBe(false);
});

test('the password sign-in bundles Secrets Manager (the device-cookie key) and Lambda (the ceiling notice) and loads neither at start (behaviour PWFAIL-5, PWFAIL-6)', async () => {
  const { loaded, bundled } = await bundledPackages('sign-in');
  for (const name of ['@aws-sdk/client-secrets-manager', '@aws-sdk/client-lambda']) {
    expect([name, bundled.has(name), loaded.has(name)]).toEqual([name, true, false]);
  }
});

test('the dashboard pages bundle neither SES nor S3, the form posts no S3, the logo row no SES (lambdas/wiring/dashboard.ts; what they cost the pages’ import CPU: bench/README.md)', async () => {
  const clients = async (handler: string) => {
    const { emitted } = await bundledPackages(handler);
    return ['@aws-sdk/client-ses', '@aws-sdk/client-s3'].filter((name) => emitted.has(name));
  };
  expect(await clients('dashboard-pages')).toEqual([]);
  expect(await clients('dashboard')).toEqual(['@aws-sdk/client-ses']);
  expect(await clients('dashboard-logo')).toEqual(['@aws-sdk/client-s3']);
});

test.each(['passkey-sign-in', 'passkey-register'])(
  'the %s function loads the WebAuthn library on first verification, not at import',
  async (handler) => {
    const { loaded, bundled } = await bundledPackages(handler);
    expect(['@simplewebauthn/server', bundled.has('@simplewebauthn/server'), loaded.has('@simplewebauthn/server')]).toEqual([
      '@simplewebauthn/server',
      true,
      false,
    ]);
  },
);

/**
 * Functions that still carry SES without a mail row (its size and import CPU on Node 24 are in
 * bench/README.md): their wiring (passkey and account dependencies) holds a mailer they never
 * call. Left for a later split like wiring/admin.ts getAdminWithoutMail; the list may only shrink.
 */
const sesWithoutMail = ['reset-password-page'];

test.each([...rowsByHandler.keys()])(
  'the %s function carries the SES client only if one of its rows sends mail (parsed at import even when loaded on first send)',
  async (handler) => {
    const { emitted } = await bundledPackages(handler);
    const rows = rowsByHandler.get(handler)!;
    const sendsMail = rows.some((row) => row.sendsMail === true);
    expect([handler, emitted.has('@aws-sdk/client-ses')]).toEqual([handler, sendsMail || sesWithoutMail.includes(handler)]);
  },
);
