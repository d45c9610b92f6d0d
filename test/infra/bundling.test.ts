/**
 * The one test file that runs esbuild (every other infra test skips bundling): it reads the
 * function packages `cdk deploy` would upload, as Lambda's ARM64 runtime would load them.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
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

const execFileAsync = promisify(execFile);
let outdir: string;
let packages: FunctionPackage[];
/** What the bundling printed (esbuild and npm write to the inherited stderr). */
let synthOutput: string;

beforeAll(() => {
  outdir = mkdtempSync(path.join(tmpdir(), 'cdk.out-bundling-'));
  const synth = spawnSync(process.execPath, [require.resolve('tsx/cli'), path.join(__dirname, 'synthesize-bundled.ts'), outdir], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  synthOutput = `${synth.stdout}${synth.stderr}`;
  if (process.env.VERBOSE_TESTS) process.stderr.write(synthOutput);
  if (synth.status !== 0) throw new Error(`bundled synth failed:\n${synthOutput.slice(-8000)}`);
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

test('bundling prints no per-function chatter: no esbuild size summary, no npm complaint about its log level (behaviour CONFIG-13)', () => {
  expect(packages.length).toBeGreaterThan(routes.length / 2);
  const chatter = synthOutput.split('\n').filter((line) => /⚡ Done in|index\.mjs\s+[\d.]+[km]?b$|invalid config loglevel/.test(line));
  expect(chatter).toEqual([]);
});

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

test('no function package imports node:http as an ES module (lib/bundling.ts builtinAliases: a share of each cold start on Node 24, bench/README.md)', () => {
  // Our functions (index.mjs); CDK's own helper functions are CommonJS.
  const ours = packages.filter((p) => existsSync(path.join(p.dir, 'index.mjs')));
  expect(ours.length).toBeGreaterThan(routes.length / 2);
  const importing = ours.filter((p) => /\bfrom\s*["'](node:)?http["']/.test(readFileSync(path.join(p.dir, 'index.mjs'), 'utf8')));
  expect(importing.map((p) => p.description)).toEqual([]);
  // The stand-in is in use where the SDK is: the token function's package holds it.
  expect(readFileSync(path.join(packageOf('POST /api/token').dir, 'index.mjs'), 'utf8')).toContain('getBuiltinModule("node:http")');
});

test('no function package imports node:process as an ES module (lib/bundling.ts builtinAliases: a share of each SDK-using cold start on Node 24, bench/README.md)', () => {
  const ours = packages.filter((p) => existsSync(path.join(p.dir, 'index.mjs')));
  const importing = ours.filter((p) => /\bfrom\s*["']node:process["']/.test(readFileSync(path.join(p.dir, 'index.mjs'), 'utf8')));
  expect(importing.map((p) => p.description)).toEqual([]);
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

describe("the shipped bundle with tracing on (the construct's `tracing` prop)", () => {
  /**
   * The registration function's package, run as Lambda would run it (its index.mjs imported by a
   * Node.js process, the handler called with an API Gateway event), against the run's DynamoDB
   * Local, with the variables a traced function has. The tracer and the X-Ray SDK are bundled but
   * imported only now; a UDP socket stands in for the X-Ray daemon.
   */
  test('its DynamoDB call arrives at the X-Ray daemon as a subsegment of the invocation trace', async () => {
    const traceId = '1-6745a1b2-fedcba9876543210fedcba98';
    const daemon = createSocket('udp4');
    const documents: Record<string, unknown>[] = [];
    daemon.on('message', (message) => {
      const body = message.toString('utf8').split('\n')[1];
      if (body) documents.push(JSON.parse(body) as Record<string, unknown>);
    });
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    try {
      const entry = pathToFileURL(path.join(packageOf('POST /api/register').dir, 'index.mjs')).href;
      const event = {
        httpMethod: 'POST',
        path: '/api/register',
        resource: '/api/register',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        requestContext: { requestId: 'traced', identity: { sourceIp: '198.51.100.9' } },
      };
      const script = `const { handler } = await import(${JSON.stringify(entry)});
        const result = await handler(${JSON.stringify(event)}, { awsRequestId: 'traced', getRemainingTimeInMillis: () => 10000 });
        process.stdout.write(String(result.statusCode));`;
      const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
        env: {
          ...process.env,
          POWERTOOLS_TRACE_ENABLED: 'true',
          AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
          LAMBDA_TASK_ROOT: '/var/task',
          _X_AMZN_TRACE_ID: `Root=${traceId};Parent=1a2b3c4d5e6f7a8b;Sampled=1`,
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`,
        },
      });
      expect(stdout).toBe('400'); // the empty body is refused after its attempt was counted, in one transaction (behaviour REG-7)
      const deadline = Date.now() + 3000;
      const isDynamoCall = (d: Record<string, unknown>) => d.name === 'DynamoDB' && d.namespace === 'aws';
      while (!documents.some(isDynamoCall) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(documents.find(isDynamoCall)).toMatchObject({
        type: 'subsegment',
        trace_id: traceId,
        aws: { operation: 'TransactWriteItems' },
      });
    } finally {
      daemon.close();
    }
  });
});
