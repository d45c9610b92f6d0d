/**
 * `cdk synth` prints little (bin/app.ts, lib/bundling.ts): CDK's per-asset "Bundling asset"
 * lines are counted instead of printed, and esbuild and npm print warnings and errors only, so
 * the warnings at the end of a synth are not buried under a hundred functions' output.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogLevel } from 'aws-cdk-lib/aws-lambda-nodejs';
import { holdBackAssetLines } from '../../../bin/asset-lines';
import { functionBundling } from '../../../lib/bundling';

function fakeStream() {
  const written: string[] = [];
  const stream = { write: ((chunk: string) => written.push(chunk) > 0) as NodeJS.WriteStream['write'] };
  return { stream, written };
}

test('behaviour CONFIG-13: holds back the asset lines, counts them, lets everything else through, and gives the stream back', () => {
  const { stream, written } = fakeStream();
  const original = stream.write;
  const release = holdBackAssetLines(stream);
  stream.write('Bundling asset AuthorizationServer/Server/PublicFunctions/Health/Code/Stage...\n');
  stream.write('Bundling asset AuthorizationServer/Server/Fallback/Code/Stage...\n');
  stream.write('✘ [ERROR] Could not resolve "x"\n');
  stream.write('Bundling asset with more words...\n');
  expect(release()).toBe(2);
  expect(written).toEqual(['✘ [ERROR] Could not resolve "x"\n', 'Bundling asset with more words...\n']);
  expect(stream.write).toBe(original);
});

test('behaviour CONFIG-13: esbuild prints warnings only; where npm installs native modules, errors only (npm knows no "warning" level)', () => {
  expect(functionBundling().logLevel).toBe(LogLevel.WARNING);
  expect(functionBundling({ tracing: true }).logLevel).toBe(LogLevel.WARNING);
  expect(functionBundling({ hashes: true })).toMatchObject({ logLevel: LogLevel.ERROR, nodeModules: ['argon2'] });
});

test('behaviour CONFIG-13: npm run synth passes -q, so the template goes to cdk.out/ and the warnings end the output', () => {
  const scripts = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).scripts as Record<string, string>;
  expect(scripts.synth).toMatch(/^cdk synth -q /);
});
