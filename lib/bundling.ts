/**
 * The one description of how Lambda code is bundled. NodejsFunction (lib/functions.ts)
 * and `npm run bench` both read it, so what is measured is what deploys.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { LogLevel, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/** The nearest folder at or above `start` holding one of `names`. */
function findUp(names: readonly string[], start: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (names.some((name) => existsSync(path.join(dir, name)))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * This package's folder (its package.json): the repository checkout, or
 * `node_modules/aws-oauth-authorization-server` where an app installed it. This file runs
 * from lib/ (tsx, jest) or from dist/lib/ (the compiled package), so it is found, not assumed.
 * The handlers' TypeScript sources (lambdas/) ship in the package and are bundled from here.
 */
export const packageRoot = findUp(['package.json'], __dirname) ?? path.resolve(__dirname, '..');

const lockFileNames = ['package-lock.json', 'pnpm-lock.yaml', 'yarn.lock', 'bun.lock', 'bun.lockb'] as const;

/**
 * The folder esbuild and npm run in (NodejsFunction `projectRoot`) and its lock file, which
 * pins the versions of the native modules installed beside a bundle. In this repository,
 * the checkout and its package-lock.json. Installed in an app, the package has no lock file
 * (npm never packs one), so it is the app's: the nearest folder above the package with a
 * lock file, whose node_modules holds the package, so the handler sources are inside it.
 */
export const projectRoot = findUp(lockFileNames, packageRoot) ?? packageRoot;
export const depsLockFilePath = path.join(
  projectRoot,
  lockFileNames.find((name) => existsSync(path.join(projectRoot, name))) ?? 'package-lock.json',
);

/** Runs after npm installed a function's native modules (see `nativeModuleBundling`); ships in the package. */
const pruneScript = path.join(packageRoot, 'lib', 'prune-native-packages.cjs');

/** Source file of a route row's handler (`row.handler`), relative to the package root. */
export const handlerEntry = (handler: string): string => `lambdas/handlers/${handler}.ts`;

/**
 * ESM bundles of CommonJS dependencies still call `require`; ESM has none, so the
 * banner recreates it. Without it some SDK and middy dependencies throw at load time.
 */
export const esmRequireBanner = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

/**
 * Node built-ins imported through a stand-in module instead (see lambdas/bundling/node-http.ts:
 * `node:http` as an ES module adds to every SDK-using function's cold start on Node 24;
 * bench/README.md).
 * Paths relative to `projectRoot`, where esbuild runs (and resolves an alias's target), locally
 * and in the Docker bundling image alike.
 */
const nodeHttpStandIn = `./${path
  .relative(projectRoot, path.join(packageRoot, 'lambdas', 'bundling', 'node-http.ts'))
  .split(path.sep)
  .join('/')}`;
const nodeProcessStandIn = nodeHttpStandIn.replace(/node-http\.ts$/, 'node-process.ts');
export const builtinAliases: Readonly<Record<string, string>> = {
  'node:http': nodeHttpStandIn,
  http: nodeHttpStandIn,
  // Only the `node:` spelling, the one the SDK's ES modules use: a CommonJS `require('process')`
  // must keep getting `process` itself, not this module's namespace.
  'node:process': nodeProcessStandIn,
};

/** Native modules: never bundled, installed into the function package instead. */
export const nativeModules = ['argon2'] as const;

/**
 * Powertools Tracer and the X-Ray SDK under it (lambdas/adapters/aws/tracing.ts), imported only
 * when tracing is on. Left out of the bundle when the deployment does not trace: even unevaluated
 * they add to every SDK-using function's size and import CPU (bench/README.md).
 */
export const tracingModules = ['@aws-lambda-powertools/tracer'] as const;

/**
 * The machine the functions run on (lib/functions.ts: ARM64; Lambda's Amazon Linux is glibc),
 * in node-gyp-build's vocabulary: `prebuilds/<platform>-<arch>/<name>.<tags>.node`.
 */
export const nativeTarget = { platform: 'linux', arch: 'arm64', libc: 'glibc' } as const;

/**
 * What makes a native module's package the same on every build machine (x86-64 or ARM64,
 * with or without a compiler): npm runs no install script, so nothing is compiled for the
 * build machine (argon2's would build `build/Release/argon2.node`, which node-gyp-build
 * prefers to `prebuilds/`); then lib/prune-native-packages.cjs keeps only the target's
 * prebuilt binaries and stops the build when a native package has none.
 * test/infra/bundling.test.ts loads the packaged module as Lambda would and checks the ELF.
 */
function nativeModuleBundling(): Pick<BundlingOptions, 'nodeModules' | 'environment' | 'commandHooks'> {
  return {
    nodeModules: [...nativeModules],
    environment: { npm_config_ignore_scripts: 'true' },
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      // Forward slashes: `inputDir` is the project root locally and /asset-input in Docker;
      // the script is in this package, which is the project root or inside its node_modules.
      afterBundling: (inputDir, outputDir) => [
        `node "${inputDir}/${path.relative(projectRoot, pruneScript).split(path.sep).join('/')}" "${outputDir}" ${nativeTarget.platform}-${nativeTarget.arch} ${nativeTarget.libc}`,
      ],
    },
  };
}

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
  alias: builtinAliases,
  absWorkingDir: projectRoot,
} as const;

export interface FunctionBundlingOptions {
  /** The function verifies or computes Argon2id hashes (route row `hashes`). */
  readonly hashes?: boolean;
  /** The deployment traces with X-Ray (the construct's `tracing` prop): the tracer is bundled. */
  readonly tracing?: boolean;
}

/**
 * How much esbuild (and npm, where native modules are installed) prints per function. Unset, the
 * esbuild CLI prints each bundle's size and time at `info`: four lines a function, a hundred
 * functions burying synth's warnings. `warning` keeps esbuild's warnings; npm takes the same
 * value as its `--loglevel` and knows no `warning` (it prints two lines saying so), so the
 * functions it installs into run at `error`, which npm and esbuild both know (behaviour CONFIG-13).
 */
export const bundlingLogLevel = (installsNativeModules: boolean): LogLevel => (installsNativeModules ? LogLevel.ERROR : LogLevel.WARNING);

/**
 * NodejsFunction bundling. The AWS SDK is bundled (no external `@aws-sdk/*`) so the
 * tested SDK version is the one that runs, instead of whatever the runtime ships.
 */
export function functionBundling({ hashes = false, tracing = false }: FunctionBundlingOptions = {}): BundlingOptions {
  return {
    minify: esbuildSettings.minify,
    format: OutputFormat.ESM,
    target: esbuildSettings.target,
    mainFields: [...esbuildSettings.mainFields],
    banner: esmRequireBanner,
    sourceMap: esbuildSettings.sourcemap,
    logLevel: bundlingLogLevel(hashes),
    externalModules: [...(hashes ? nativeModules : []), ...(tracing ? [] : tracingModules)],
    esbuildArgs: Object.fromEntries(Object.entries(builtinAliases).map(([name, target]) => [`--alias:${name}`, target])),
    ...(hashes ? nativeModuleBundling() : {}),
  };
}
