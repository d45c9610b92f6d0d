import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { esmRequireBanner } from '../../lib/bundling';
import { logicalId, resources, synthesize } from './synthesize';

// The one test that runs esbuild: every other infra test skips bundling.
test('handlers are bundled as minified ESM with the require banner', () => {
  const { app, stack, template } = synthesize({}, { bundle: true });
  const assembly = app.synth();
  const health = resources(template, 'AWS::Lambda::Function')[logicalId(stack, stack.server.functions.Health!)]!;
  expect(health.Properties.Handler).toBe('index.handler');
  const assetHash = String(health.Properties.Code.S3Key).replace(/\.zip$/, '');
  const file = path.join(assembly.directory, `asset.${assetHash}`, 'index.mjs');
  expect(existsSync(file)).toBe(true);

  const code = readFileSync(file, 'utf8');
  expect(code.startsWith(esmRequireBanner)).toBe(true);
  expect(/export\{\w+ as handler\};?\s*$/.test(code)).toBe(true);
  // Minified: long lines (unminified esbuild output averages under 40 characters a line).
  // Booleans, so a failure does not print the whole bundle.
  const averageLineLength = code.length / code.split('\n').length;
  expect(averageLineLength).toBeGreaterThan(1000);
  expect(/\bfunction \w+\(event, container\)/.test(code)).toBe(false);
}, 60_000);
