/**
 * `npm run bench`: measurements, not tests. `npm run bench -- <section> ...` runs only the
 * named sections. Load runs target this machine only and end by themselves. BENCH_NODE names
 * another Node.js (e.g. a Node.js 24 binary, Lambda's runtime): the whole run then happens on it,
 * the in-process sections included.
 */
import { spawnSync } from 'node:child_process';
import { apiKeysBench } from './api-keys';
import { clientCredentialsBench } from './client-credentials';
import { coldStartBench } from './cold-start';
import { dynamodbClientBench } from './dynamodb-client';
import { tokenCpuBench } from './token-cpu';

const sections: Record<string, () => Promise<string>> = {
  'cold-start': coldStartBench,
  'client-credentials': clientCredentialsBench,
  'api-keys': apiKeysBench,
  'dynamodb-client': dynamodbClientBench,
  'token-cpu': tokenCpuBench,
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in sections));
  if (unknown.length > 0) throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(sections).join(', ')}`);
  for (const name of wanted.length > 0 ? wanted : Object.keys(sections)) {
    process.stdout.write(`== ${name}\n${await sections[name]!()}\n\n`);
  }
}

const benchNode = process.env.BENCH_NODE;
if (benchNode && benchNode !== process.execPath) {
  const run = spawnSync(benchNode, ['--import', 'tsx', __filename, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
