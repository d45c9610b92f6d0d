/**
 * The package as an app installs it. `npm pack` (its prepack script runs
 * `npm run build`) makes the tarball; the test checks what is in it, installs it into a
 * temporary app offline (the tarball extracted into node_modules, every dependency linked
 * from this repository's node_modules, where npm would have installed them from the
 * registry; a lock file for NodejsFunction to find), and runs test/package/consumer/app.ts
 * there: compiled against the package's own type declarations, it builds two servers side
 * by side (a stack each), bundles a third server's functions (two route rows: one without and one with
 * the native Argon2 module) from the installed TypeScript sources, and verifies a token
 * with the resource-server helper.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fallbackHandler, jobs, type Route, routes } from '../../lambdas/routes';
import { elfMachine, elfMachineAarch64, filesUnder, functionPackages, type FunctionPackage } from '../infra/function-packages';

const root = path.resolve(__dirname, '../..');
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const verbose = Boolean(process.env.VERBOSE_TESTS);

let work: string;
let files: string[];
let consumer: string;
let outdir: string;
let report: any;
/** Bundled from the installed sources: one function without and one with the native Argon2 module. */
const bundledRoutes = routes.filter((route) => route.name === 'Health' || route.name === 'Token');

const run = (file: string, args: string[], cwd: string): string => {
  try {
    return execFileSync(file, args, {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', verbose ? 'inherit' : 'pipe'],
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} failed:\n${`${stdout}\n${stderr}`.slice(-8000)}`);
  }
};

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'package-test-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], root));
  files = packed[0].files.map((file: { path: string }) => file.path);

  consumer = path.join(work, 'consumer');
  const installed = path.join(consumer, 'node_modules', packageJson.name);
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', path.join(work, packed[0].filename), '-C', installed, '--strip-components=1'], work);
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry.startsWith('.') || entry === packageJson.name) continue;
    symlinkSync(path.join(root, 'node_modules', entry), path.join(consumer, 'node_modules', entry));
  }
  // The app's lock file (NodejsFunction bundles from its folder and installs native modules
  // with it); this repository's pins the versions the package was tested with.
  writeFileSync(path.join(consumer, 'package-lock.json'), readFileSync(path.join(root, 'package-lock.json')));
  cpSync(path.join(__dirname, 'consumer'), consumer, { recursive: true });

  run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], consumer);
  outdir = path.join(work, 'cdk.out');
  writeFileSync(path.join(consumer, 'bundled-routes.json'), JSON.stringify(bundledRoutes));
  report = JSON.parse(run(process.execPath, ['app.js', outdir, 'bundled-routes.json'], consumer));
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm pack', () => {
  test('the package holds the compiled construct and resource-server helper with their type declarations, where exports points', () => {
    for (const target of Object.values<Record<string, string>>(packageJson.exports).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : Object.values(entry),
    )) {
      expect(files).toContain(target.replace(/^\.\//, ''));
    }
    expect(files).toEqual(expect.arrayContaining(['dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lambdas/resource-server/index.d.ts']));
    expect(files).toContain(packageJson.types.replace(/^\.\//, ''));
  });

  test('the package holds the TypeScript source of every function the construct bundles, and what they import from outside lambdas/', () => {
    const entries = [...routes.map((r) => r.handler), fallbackHandler].map((handler) => `lambdas/handlers/${handler}.ts`);
    entries.push(...jobs.map((job) => `lambdas/jobs/${job.handler}.ts`));
    entries.push(
      'lambdas/custom-resources/signing-key.ts',
      'lambdas/custom-resources/admin-bootstrap.ts',
      'lambdas/jobs/rotate-signing-keys.ts',
      'lambdas/jobs/roll-up-statistics.ts',
    );
    for (const entry of entries) expect(files).toContain(entry);
    expect(files).toEqual(expect.arrayContaining(['lib/prune-native-packages.cjs', 'docs/openapi.json']));
  });

  test('the package holds no tests, local-server code, data, build leftovers, secrets or TypeScript outside lambdas/', () => {
    const unwanted = files.filter(
      (file) =>
        /^(test|bench|bin|node_modules|cdk\.out|\.data|\.bench|coverage)\//.test(file) ||
        file.startsWith('lambdas/local/') ||
        /\.test\.[cm]?[jt]s$/.test(file) ||
        /(^|\/)(\.env[^/]*|\.npmrc|[^/]*\.pem|[^/]*\.key|id_[a-z0-9]+|credentials[^/]*|cdk\.context\.json)$/.test(file) ||
        (file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith('lambdas/')),
    );
    expect(unwanted).toEqual([]);
  });
});

describe('installed in another app', () => {
  test('the app compiles against the package types and synthesizes two servers side by side', () => {
    const functionCount = routes.length;
    expect(report.servers).toEqual([
      { path: 'ConsumerIdentity/First', functions: functionCount },
      { path: 'ConsumerIdentitySecond/Second', functions: functionCount },
    ]);
    const templates = readdirSync(outdir).filter((file) => file.endsWith('.template.json'));
    expect(templates).toEqual(expect.arrayContaining(['ConsumerIdentity.template.json', 'ConsumerIdentitySecond.template.json']));
    const nested = templates.filter((file) => file.endsWith('.nested.template.json'));
    // Per server: the four route families' functions and their API methods (two each), Monitoring
    // (alarms and the dashboard), Audit (the audit log's Object Lock archive, behaviour IAM-4) and
    // Jobs (scheduled jobs, the key-change watch).
    expect(nested.filter((file) => file.startsWith('ConsumerIdentityFirst'))).toHaveLength(11);
    expect(nested.filter((file) => file.startsWith('ConsumerIdentitySecond'))).toHaveLength(11);
  });

  test("behaviour CLI-4: the package's bin, tollgate, is in the package and runs with plain node from the installed copy", () => {
    expect(files).toContain(packageJson.bin.tollgate);
    const bin = path.join(consumer, 'node_modules', packageJson.name, packageJson.bin.tollgate);
    expect(run(process.execPath, [bin, '--help'], consumer)).toMatch(/^Usage: tollgate <command> \[options\]\n/);
  });

  test('typed props are validated at synth in the installed copy, naming the prop', () => {
    expect(report.invalid).toMatch(/^mfaPolicy \(MFA_POLICY\) must be "off", "admins", "everyone" \(got "sometimes"\)$/);
  });

  describe('functions bundled from the installed TypeScript sources (stack ConsumerBundled)', () => {
    let bundled: FunctionPackage[];
    beforeAll(() => {
      bundled = functionPackages(outdir).filter((p) => existsSync(path.join(p.dir, 'index.mjs')));
    });
    const descriptionOf = (route: Route) => `${route.method} ${route.path}`;

    test('the route rows, the fallback and the jobs are ESM bundles exporting their handler', () => {
      const expected = [
        ...bundledRoutes.map(descriptionOf),
        'Unrouted requests: 404 or 405',
        ...jobs.map((job) => `Scheduled: ${job.name}`),
      ];
      const ours = bundled.filter((p) => expected.includes(p.description));
      expect(ours.map((p) => p.description).sort()).toEqual(expected.sort());
      // Not anchored at the end: esbuild puts dependencies' licence comments after it.
      const withoutHandler = ours.filter(
        (pkg) => !/export\{[\w$]+ as handler\}/.test(readFileSync(path.join(pkg.dir, 'index.mjs'), 'utf8')),
      );
      expect(
        withoutHandler.map((pkg) => `${pkg.description}: ${readFileSync(path.join(pkg.dir, 'index.mjs'), 'utf8').slice(-300)}`),
      ).toEqual([]);
    });

    test('a function that hashes ships argon2 with only its linux-arm64 prebuilt binary (the prune script ran from the installed package); one that does not, none', () => {
      const [health, token] = ['Health', 'Token'].map(
        (name) => bundled.find((p) => p.description === descriptionOf(bundledRoutes.find((r) => r.name === name)!))!,
      );
      expect(existsSync(path.join(health!.dir, 'node_modules'))).toBe(false);
      const argon2 = path.join(token!.dir, 'node_modules', 'argon2');
      const binaries = filesUnder(argon2).filter((file) => file.endsWith('.node'));
      expect(binaries.map((file) => path.relative(argon2, file))).toEqual([
        expect.stringMatching(/^prebuilds\/linux-arm64\/[^/]*glibc[^/]*\.node$/),
      ]);
      expect(elfMachine(binaries[0]!)).toBe(elfMachineAarch64);
    });
  });

  test('behaviour RS-1: the resource-server helper from the package verifies a token for its resource and refuses a missing one', () => {
    expect(report.verified).toEqual({ client_id: 'tgc_consumer', scopes: ['mcp:tools'] });
    expect(report.refusal).toBe('401 invalid_request');
    expect(report.metadataPath).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(report.metadata).toMatchObject({ resource: 'https://mcp.example.org/mcp', authorization_servers: ['https://auth.example.org'] });
  });
});
