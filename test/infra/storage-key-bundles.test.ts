/**
 * A function's bundle holds only the storage key builders it calls. Each builder of
 * lambdas/adapters/dynamodb/keys/ is an export of its own and every caller imports the module as a
 * namespace (`import * as keys from './keys/item-keys'`), which esbuild tree-shakes per export; a
 * builder object, or one dynamic access to the namespace, would put every builder in every
 * DynamoDB-using bundle. The key families are read by the CDK stack and the tests only. Bundled
 * with the stack's own esbuild settings (lib/bundling.ts).
 */
import { bundleHandler } from '../support/handler-bundles';

/** The bundle's code and the bytes each module of lambdas/adapters/dynamodb/keys/ put in it. */
async function bundle(handler: string): Promise<{ code: string; keyModules: Record<string, number> }> {
  const { code, bytesOf } = await bundleHandler(handler);
  const keyModules = Object.fromEntries(
    Object.entries(bytesOf)
      .filter(([path]) => path.includes('adapters/dynamodb/keys/'))
      .map(([path, bytes]) => [path.replace(/.*adapters\/dynamodb\/keys\//, ''), bytes]),
  );
  return { code, keyModules };
}

test('the metadata document bundles the scope keys it reads and none of the builders it never calls', async () => {
  const { code } = await bundle('oauth-authorization-server-metadata');
  expect(code.includes('SCOPE#')).toBe(true);
  for (const prefix of ['PWRESET#', 'WEBAUTHN#', 'SESSION#', 'PASSKEY#', 'DCRRATE#', 'EMAILVERIFY#']) {
    expect([prefix, code.includes(prefix)]).toEqual([prefix, false]);
  }
}, 60_000);

test.each(['token', 'sign-in', 'admin/users-list'])(
  '%s bundles key builders but not the key families (behaviour IAM-1: the stack reads them)',
  async (handler) => {
    const { code, keyModules } = await bundle(handler);
    expect(keyModules['item-keys.ts']).toBeGreaterThan(0);
    expect(keyModules['families.ts'] ?? 0).toBe(0);
    expect(code).not.toContain('COPY?#*');
  },
  60_000,
);
