/**
 * Per function: the minified bundle (built with the exact esbuild settings the CDK stack
 * deploys, lib/bundling.ts) and the median CPU time to import it in a fresh Node.js process,
 * the part of a Lambda cold start the code controls. Routes first, then the jobs and the custom
 * resources (their budget is larger: they run once a day or once a deploy). Targets: every
 * route ≤ 100 ms, jobs and custom resources ≤ 150 ms (bench/README.md; results in README "Cold start").
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { esbuildSettings, nativeModules, projectRoot, tracingModules } from '../lib/bundling';
import { fallbackHandler, jobs, routes } from '../lambdas/routes';
import { median } from './load';

const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 7);
/** Another Node.js to import with, e.g. BENCH_NODE=/tmp/n24/node24/bin/node for Lambda's Node.js 24. */
const nodeBinary = process.env.BENCH_NODE ?? process.execPath;
const only = process.env.BENCH_ROUTES?.split(',');
const outDir = join(projectRoot, '.bench', 'bundles');

/** Milliseconds of the process's CPU to import the bundle in a new process (module load and top-level code only). */
function importTime(file: string): number {
  const script = `const c = process.cpuUsage(); await import(${JSON.stringify(`file://${file}`)}); const u = process.cpuUsage(c); process.stdout.write(String((u.user + u.system) / 1000));`;
  return Number(execFileSync(nodeBinary, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: projectRoot }));
}

export async function coldStartBench(): Promise<string> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const entries = [
    ...routes.map((r) => ({ label: `${r.method} ${r.path}`, source: `handlers/${r.handler}`, hashes: r.hashes === true, kind: 'route' })),
    { label: 'fallback (404/405)', source: `handlers/${fallbackHandler}`, hashes: false, kind: 'route' },
    ...jobs.map((j) => ({ label: `job ${j.handler}`, source: `jobs/${j.handler}`, hashes: false, kind: 'other' })),
    { label: 'job rotate-signing-keys', source: 'jobs/rotate-signing-keys', hashes: false, kind: 'other' },
    { label: 'job roll-up-statistics', source: 'jobs/roll-up-statistics', hashes: false, kind: 'other' },
    { label: 'custom resource signing-key', source: 'custom-resources/signing-key', hashes: false, kind: 'other' },
    { label: 'custom resource admin-bootstrap', source: 'custom-resources/admin-bootstrap', hashes: true, kind: 'other' },
  ];
  const rows: string[][] = [];
  const measured: { label: string; kind: string; ms: number }[] = [];
  const seen = new Set<string>();
  for (const entry of entries.filter((e) => !only || only.includes(e.source.split('/').slice(1).join('/')))) {
    if (seen.has(entry.label)) continue;
    seen.add(entry.label);
    const outfile = join(outDir, `${entry.source.replaceAll('/', '-')}.mjs`);
    await build({
      ...esbuildSettings,
      mainFields: [...esbuildSettings.mainFields],
      entryPoints: [join(projectRoot, 'lambdas', `${entry.source}.ts`)],
      outfile,
      // As deployed by default: tracing off, so the tracer is not bundled (lib/bundling.ts).
      external: [...(entry.hashes ? nativeModules : []), ...tracingModules],
      logLevel: 'error',
    });
    const size = (await stat(outfile)).size;
    importTime(outfile); // warm the file cache, as Lambda's is warm for the code package
    const ms = median(Array.from({ length: runs }, () => importTime(outfile)));
    measured.push({ label: entry.label, kind: entry.kind, ms });
    rows.push([entry.label, `${(size / 1024).toFixed(1)} KiB`, `${ms.toFixed(1)} ms`]);
  }
  const header = ['function', 'bundle (minified)', `import CPU, median of ${runs}`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const summary = (kind: string, label: string, budget: number) => {
    const of = measured.filter((m) => m.kind === kind).sort((a, b) => b.ms - a.ms);
    if (of.length === 0) return [];
    const largest = of.slice(0, 3).map((m) => `${m.label} ${m.ms.toFixed(1)}`);
    const over = of.filter((m) => m.ms > budget).length;
    return [`${label}: median ${median(of.map((m) => m.ms)).toFixed(1)} ms; largest ${largest.join(', ')}; ${over} over ${budget} ms`];
  };
  return [
    `Cold-start share: bundle size and import CPU (node ${execFileSync(nodeBinary, ['--version'], { encoding: 'utf8' }).trim()}, ${process.arch})`,
    '',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
    '',
    ...summary('route', 'routes', 100),
    ...summary('other', 'jobs and custom resources', 150),
  ].join('\n');
}
