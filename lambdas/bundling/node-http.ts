/**
 * Stands in for `node:http` in the function bundles (lib/bundling.ts `builtinAliases`). The AWS
 * SDK's instance-metadata credential provider imports `node:http` as an ES module; esbuild hoists
 * that import to the top of every bundle holding an SDK client, even though the provider itself
 * is loaded only if ever used. On Node 24 the ES-module view of `node:http` makes Node evaluate
 * its lazy exports, which loads its internal fetch implementation (undici), a cost that
 * `process.getBuiltinModule('node:http')` does not pay: about ten times less CPU alone, and a
 * measurable share of every SDK-using cold start (figures in bench/README.md).
 * The same module object either way; a named import this file does not export fails the build,
 * not a request.
 */
const http = process.getBuiltinModule('node:http');

export default http;
export const { Agent, request, get, createServer, STATUS_CODES, METHODS, IncomingMessage, ServerResponse, ClientRequest, globalAgent } =
  http;
