/**
 * What only names the grant types or the client-authentication methods (discovery, dynamic
 * registration, the admin API's client validation, the activity log) reads their facts
 * (core/grants/grant-types.ts, core/client-auth/auth-methods.ts) and loads none of their
 * implementations: token issuing, the stores' ports, the credential parsers and verifiers stay
 * out of those functions' bundles (CONTRIBUTING.md, "Adding a grant type"). Checked over what
 * esbuild bundles from each module: type-only imports cost nothing and are not followed.
 */
import { build } from 'esbuild';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** The project modules a bundle of `entry` holds (paths from the repository root). */
async function bundledModules(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  return Object.keys(result.metafile.inputs).map((path) => relative(root, join(root, path)));
}

const facts = ['lambdas/core/grants/grant-types.ts', 'lambdas/core/client-auth/auth-methods.ts'];
const implementationRooms = ['lambdas/core/grants/', 'lambdas/core/client-auth/'];

test.each([
  'lambdas/core/discovery.ts',
  'lambdas/core/registration.ts',
  'lambdas/core/admin/activity.ts',
  'lambdas/core/admin/clients.ts',
  'lambdas/handlers/admin/clients-create.ts',
])('%s loads the grant and method facts, no implementation', async (entry) => {
  const loaded = await bundledModules(entry);
  const implementations = loaded.filter((path) => implementationRooms.some((room) => path.startsWith(room)) && !facts.includes(path));
  expect(implementations).toEqual([]);
});

test('the registries load every implementation (so the check above can see one)', async () => {
  expect(await bundledModules('lambdas/core/grants/registry.ts')).toEqual(
    expect.arrayContaining(['lambdas/core/grants/grant-types.ts', 'lambdas/core/grants/authorization-code.ts']),
  );
  expect(await bundledModules('lambdas/core/client-auth/registry.ts')).toEqual(
    expect.arrayContaining(['lambdas/core/client-auth/auth-methods.ts', 'lambdas/core/client-auth/client-secret-basic.ts']),
  );
});
