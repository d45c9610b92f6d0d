/**
 * Per route: the minified bundle (built with the exact esbuild settings the CDK stack
 * deploys, lib/bundling.ts) and the median time to import it in a fresh Node.js
 * process, the part of a Lambda cold start the code controls.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { esbuildSettings, nativeModules, projectRoot } from '../lib/bundling';
import { fallbackHandler, routes } from '../lambdas/routes';
import { median } from './load';

const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 7);
/** Another Node.js to import with, e.g. BENCH_NODE=/tmp/n24/node24/bin/node for Lambda's Node.js 24. */
const nodeBinary = process.env.BENCH_NODE ?? process.execPath;
const only = process.env.BENCH_ROUTES?.split(',');
const outDir = join(projectRoot, '.bench', 'bundles');

/** Milliseconds to import the bundle in a new process (module load and top-level code only). */
function importTime(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(nodeBinary, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: projectRoot }));
}

export async function coldStartBench(): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const entries = [
    ...routes.map((r) => ({ label: `${r.method} ${r.path}`, handler: r.handler, hashes: r.hashes === true })),
    { label: 'fallback (404/405)', handler: fallbackHandler, hashes: false },
  ];
  const rows: string[][] = [];
  for (const entry of entries.filter((e) => !only || only.includes(e.handler))) {
    const outfile = join(outDir, `${entry.handler}.mjs`);
    await build({
      ...esbuildSettings,
      mainFields: [...esbuildSettings.mainFields],
      entryPoints: [join(projectRoot, 'lambdas', 'handlers', `${entry.handler}.ts`)],
      outfile,
      external: entry.hashes ? [...nativeModules] : [],
      logLevel: 'error',
    });
    const size = (await stat(outfile)).size;
    importTime(outfile); // warm the file cache, as Lambda's is warm for the code package
    const times = Array.from({ length: runs }, () => importTime(outfile));
    rows.push([entry.label, `${(size / 1024).toFixed(1)} KiB`, `${median(times).toFixed(1)} ms`]);
  }
  const header = ['route', 'bundle (minified)', `import, median of ${runs}`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [
    `Cold-start share: bundle size and import time (node ${execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim()}, ${process.arch})`,
    '',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ].join('\n');
}
