/**
 * Jest transformer: esbuild turns TypeScript, and the ESM-only dependencies (middy,
 * jose), into CommonJS for jest's module system. Dynamic import() becomes require()
 * so the local server's handler loading works under jest as it does under tsx.
 * Type-checking is separate (`tsc --noEmit`, the first half of `npm test`).
 * esbuild rather than @swc/jest or ts-jest: ts-jest needs the TypeScript JS API, gone in
 * TypeScript 7, and @swc/core's lock entries break `npm ci` against registries that only
 * mirror Linux binaries; esbuild is already the bundler the stack deploys with.
 */
const { transformSync, version } = require('esbuild');
const { createHash } = require('node:crypto');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: filename.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
      supported: { 'dynamic-import': false },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return createHash('sha256').update(version).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
};
