/**
 * One handler bundled as the stack bundles it by default (lib/bundling.ts: its esbuild settings,
 * the native modules and the tracer left out), in memory, with esbuild's metafile: what the infra
 * tests read to say what a function carries.
 */
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { esbuildSettings, handlerEntry, nativeModules, projectRoot, tracingModules } from '../../lib/bundling';

export interface HandlerBundle {
  /** The bundle's code. */
  readonly code: string;
  /** Every input esbuild read, with what each imports. */
  readonly inputs: Metafile['inputs'];
  /** The entry point's path among the inputs. */
  readonly entryPoint: string;
  /** The bytes each input put into the output (0: read, then tree-shaken away). */
  readonly bytesOf: Readonly<Record<string, number>>;
}

export async function bundleHandler(handler: string): Promise<HandlerBundle> {
  const result = await build({
    ...esbuildSettings,
    mainFields: [...esbuildSettings.mainFields],
    entryPoints: [join(projectRoot, handlerEntry(handler))],
    external: [...nativeModules, ...tracingModules],
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const output = Object.values(result.metafile.outputs).find((o) => o.entryPoint)!;
  return {
    code: result.outputFiles.find((file) => !file.path.endsWith('.map'))!.text,
    inputs: result.metafile.inputs,
    entryPoint: output.entryPoint!,
    bytesOf: Object.fromEntries(Object.entries(output.inputs).map(([path, input]) => [path, input.bytesInOutput])),
  };
}
