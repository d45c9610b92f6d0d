#!/usr/bin/env node
/**
 * Runs Biome (formatter and linter, configured in biome.jsonc) from its prebuilt binary for
 * this machine. The project depends on the platform packages directly, as optional
 * dependencies, because the `@biomejs/biome` launcher lists binaries for every platform and
 * `npm ci` refuses a lock file that lacks any of them when a registry does not carry them all.
 * Where no binary exists for this platform the check is skipped with a warning (CI runs on
 * Linux, which has one).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const platform = `${process.platform}-${process.arch}`;
let binary;
try {
  binary = require.resolve(`@biomejs/cli-${platform}/biome`);
} catch {
  process.stderr.write(`biome: no prebuilt binary for ${platform} is installed; formatting and lint were not checked.\n`);
  process.exit(0);
}
const result = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
process.exit(result.status ?? 1);
