/**
 * The one test file that runs esbuild (every other infra test skips bundling): it reads the
 * function packages `cdk deploy` would upload, as Lambda's ARM64 runtime would load them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { routes } from '../../lambdas/routes';
import { esmRequireBanner, nativeModules } from '../../lib/bundling';
import {
  elfMachine,
  elfMachineAarch64,
  filesUnder,
  functionPackages,
  resolveNativeBinding,
  type FunctionPackage,
} from './function-packages';

let outdir: string;
let packages: FunctionPackage[];

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'cdk.out-bundling-'));
  const verbose = Boolean(process.env.VERBOSE_TESTS);
  try {
    execFileSync(process.execPath, [require.resolve('tsx/cli'), path.join(__dirname, 'synthesize-bundled.ts'), outdir], {
      stdio: verbose ? 'inherit' : 'pipe',
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const output = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`bundled synth failed:\n${output.slice(-8000)}`);
  }
  packages = functionPackages(outdir);
}, 240_000);

afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

const packageOf = (description: string): FunctionPackage => {
  const found = packages.filter((p) => p.description === description);
  expect(found).toHaveLength(1);
  return found[0]!;
};

test('handlers are bundled as minified ESM with the require banner', () => {
  const file = path.join(packageOf('GET /api/health').dir, 'index.mjs');
  expect(existsSync(file)).toBe(true);

  const code = readFileSync(file, 'utf8');
  expect(code.startsWith(esmRequireBanner)).toBe(true);
  // esbuild moves comments marked @preserve (Powertools has two) to one block after the code.
  expect(/export\{[\w$]+ as handler\};?\s*(\/\*![\s\S]*\*\/\s*)?$/.test(code)).toBe(true);
  // Minified: long lines (unminified esbuild output averages under 40 characters a line).
  // Booleans, so a failure does not print the whole bundle.
  const averageLineLength = code.length / code.split('\n').length;
  expect(averageLineLength).toBeGreaterThan(1000);
  expect(/\bfunction \w+\(event, runtime\)/.test(code)).toBe(false);
});

describe('native modules in the ARM64 function packages', () => {
  const withModule = (name: string) => packages.filter((p) => existsSync(path.join(p.dir, 'node_modules', name)));

  test('argon2 ships with every function that hashes (its route rows and the admin seed), and only with them', () => {
    const hashing = [...routes.filter((r) => r.hashes).map((r) => `${r.method} ${r.path}`)];
    const shipped = withModule('argon2').map((p) => p.description);
    for (const description of hashing) expect(shipped).toContain(description);
    // The admin seed (lib/admin-bootstrap.ts) is the one hashing function that is not a route.
    expect(shipped).toHaveLength(hashing.length + 1);
  });

  test.each([...nativeModules])(
    '%s: node-gyp-build resolves, for linux/arm64 glibc as on Lambda, to the prebuilt linux-arm64 binary, an AArch64 ELF',
    (name) => {
      const shipping = withModule(name);
      expect(shipping.length).toBeGreaterThan(0);
      for (const pkg of shipping) {
        expect(pkg.architectures).toEqual(['arm64']);
        const binding = resolveNativeBinding(pkg.dir, name);
        // Relative paths, so a failure names the file without the temp folder.
        expect(path.relative(path.join(pkg.dir, 'node_modules', name), binding)).toMatch(/^prebuilds\/linux-arm64\/[^/]*glibc[^/]*\.node$/);
        expect(elfMachine(binding)?.toString(16)).toBe(elfMachineAarch64.toString(16));
      }
    },
  );

  test('no function package holds a binary built for another machine, nor a node-gyp build folder', () => {
    for (const pkg of packages.filter((p) => existsSync(path.join(p.dir, 'node_modules')))) {
      const files = filesUnder(path.join(pkg.dir, 'node_modules')).map((file) => path.relative(pkg.dir, file));
      expect(files.filter((file) => /\/build\/(Release|Debug)\//.test(file))).toEqual([]);
      const foreign = files.filter((file) => {
        const machine = elfMachine(path.join(pkg.dir, file));
        // A .node file that is not ELF is a Mach-O or PE binary: of no use on Lambda either.
        return file.endsWith('.node') ? machine !== elfMachineAarch64 : machine !== undefined && machine !== elfMachineAarch64;
      });
      expect(foreign).toEqual([]);
    }
  });
});
