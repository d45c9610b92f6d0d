/**
 * Issue 20 (cold start): no route's function bundles the AWS SDK's clients or their runtime
 * (@smithy/*, @aws-sdk/core, credential providers, client-*, lib-dynamodb). Those were most
 * of every route's import time; requests go through lambdas/adapters/aws instead. Each
 * handler is bundled with the stack's own esbuild settings (lib/bundling.ts), and esbuild's
 * metafile lists every module that went in. Only @aws-sdk/util-dynamodb (marshalling, no
 * dependencies) may come from @aws-sdk.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { esbuildSettings, handlerEntry, nativeModules, projectRoot } from '../../lib/bundling';
import { fallbackHandler, routes } from '../../lambdas/routes';

const entries = [...new Set([...routes.map((r) => r.handler), fallbackHandler])];
const allowedFromAwsSdk = new Set(['@aws-sdk/util-dynamodb']);

/** The npm packages a bundle holds, by name. */
async function bundledPackages(handler: string): Promise<Set<string>> {
  const result = await build({
    ...esbuildSettings,
    mainFields: [...esbuildSettings.mainFields],
    entryPoints: [join(projectRoot, handlerEntry(handler))],
    external: [...nativeModules],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const names = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) names.add(match[1]!);
  }
  return names;
}

test.each(entries)('the %s function bundles no AWS SDK client, @smithy runtime or credential provider (issue 20)', async (handler) => {
  const packages = [...(await bundledPackages(handler))];
  expect(packages.filter((name) => name.startsWith('@smithy/') || (name.startsWith('@aws-sdk/') && !allowedFromAwsSdk.has(name)))).toEqual(
    [],
  );
});

test('the token endpoint, the busiest function, holds our DynamoDB client and the marshalling package (the test above sees real bundles)', async () => {
  const packages = await bundledPackages('token');
  expect(packages.has('@aws-sdk/util-dynamodb')).toBe(true);
  expect(packages.has('jose')).toBe(true);
});
