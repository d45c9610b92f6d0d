#!/usr/bin/env node
/**
 * `tollgate`: the admin API from a terminal (README "CLI"). The package's "bin" runs the compiled
 * copy (dist/cli/tollgate.js) with plain node; `npm run cli --` runs this file with tsx.
 */
import { runCli } from './main';
import { readSecret } from './terminal';

runCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readSecret,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tollgate: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
