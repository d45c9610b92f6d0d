/**
 * Stands in for `node:process` in the function bundles (lib/bundling.ts `builtinAliases`). The
 * AWS SDK's modules import `env` and `versions` from `node:process` as an ES module; esbuild
 * hoists those imports to the top of every bundle holding an SDK client. Node builds the ES-module
 * view of `process` by reading every property, getters included: `process.report` loads the
 * diagnostic-report module and more (readline, the REPL history), a few ms of CPU on Node 24
 * (bench/README.md), for two plain properties. The same objects either way; a named import this file does not export
 * fails the build, not a request.
 */
const { env, versions, platform, arch } = process;

export default process;
export { env, versions, platform, arch };
