/**
 * `tsx test/infra/synthesize-bundled.ts <outdir>`: synthesizes the test stack with real
 * bundling into <outdir>, with X-Ray tracing on. test/infra/bundling.test.ts runs it as a child process because
 * esbuild and npm write straight to the inherited stderr, which a test cannot capture: the
 * child's output is shown only when it fails or VERBOSE_TESTS=1.
 */
import { synthesize } from './synthesize';

const outdir = process.argv[2];
if (!outdir) throw new Error('usage: tsx test/infra/synthesize-bundled.ts <outdir>');
// Tracing on, so the packages hold the tracer too (lib/bundling.ts `tracingModules`): the one real bundling run covers both.
synthesize({ TRACING: 'true' }, { bundle: true, outdir }).app.synth();
