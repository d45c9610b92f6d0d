/**
 * The one description of how Lambda code is bundled. NodejsFunction (lib/functions.ts)
 * and `npm run bench` both read it, so what is measured is what deploys.
 */
import * as path from 'node:path';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

export const projectRoot = path.resolve(__dirname, '..');

/** Source file of a route row's handler (`row.handler`), relative to the project root. */
export const handlerEntry = (handler: string): string => `lambdas/handlers/${handler}.ts`;

/**
 * ESM bundles of CommonJS dependencies still call `require`; ESM has none, so the
 * banner recreates it. Without it some SDK and middy dependencies throw at load time.
 */
export const esmRequireBanner = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

/** Native modules: never bundled, installed into the function package instead. */
export const nativeModules = ['argon2'] as const;

/**
 * esbuild settings, in esbuild's own vocabulary, for callers that run esbuild directly.
 * The Node.js 22 target also suits the Node.js 24 runtime and the Node.js 20 machines
 * the benchmark runs on, which parse the same syntax.
 */
export const esbuildSettings = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'node22',
  platform: 'node',
  mainFields: ['module', 'main'],
  banner: { js: esmRequireBanner },
  sourcemap: false,
} as const;

export interface FunctionBundlingOptions {
  /** The function verifies or computes Argon2id hashes (route row `hashes`). */
  readonly hashes?: boolean;
}

/**
 * NodejsFunction bundling. The AWS SDK is bundled (no external `@aws-sdk/*`) so the
 * tested SDK version is the one that runs, instead of whatever the runtime ships.
 */
export function functionBundling({ hashes = false }: FunctionBundlingOptions = {}): BundlingOptions {
  return {
    minify: esbuildSettings.minify,
    format: OutputFormat.ESM,
    target: esbuildSettings.target,
    mainFields: [...esbuildSettings.mainFields],
    banner: esmRequireBanner,
    sourceMap: esbuildSettings.sourcemap,
    externalModules: hashes ? [...nativeModules] : [],
    // npm installs argon2 into the package; its prebuilt binaries cover linux-arm64.
    ...(hashes ? { nodeModules: [...nativeModules] } : {}),
  };
}
