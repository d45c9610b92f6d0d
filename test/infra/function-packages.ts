/**
 * Reads what `cdk deploy` would upload: the function packages of a synthesized cloud
 * assembly (every template in it, nested ones included), and the native binaries inside.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, type Dirent } from 'node:fs';
import * as path from 'node:path';

export interface FunctionPackage {
  readonly logicalId: string;
  readonly description: string;
  readonly architectures: readonly string[];
  /** The unzipped asset folder. */
  readonly dir: string;
}

/** Every Lambda function of every template in the assembly whose code is a local asset folder. */
export function functionPackages(assemblyDir: string): FunctionPackage[] {
  const packages: FunctionPackage[] = [];
  for (const file of readdirSync(assemblyDir).filter((name) => name.endsWith('.template.json'))) {
    const template = JSON.parse(readFileSync(path.join(assemblyDir, file), 'utf8'));
    for (const [logicalId, resource] of Object.entries<any>(template.Resources ?? {})) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const key = resource.Properties.Code?.S3Key;
      if (typeof key !== 'string') continue;
      const dir = path.join(assemblyDir, `asset.${key.replace(/\.zip$/, '')}`);
      if (!existsSync(dir)) continue;
      packages.push({
        logicalId,
        description: String(resource.Properties.Description ?? ''),
        architectures: resource.Properties.Architectures ?? ['x86_64'],
        dir,
      });
    }
  }
  return packages;
}

/** ELF e_machine of AArch64 (ELF specification, "Machine" values). */
export const elfMachineAarch64 = 0xb7;

/** The e_machine field of an ELF file, or undefined when the file is not ELF. */
export function elfMachine(file: string): number | undefined {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    if (readSync(fd, header, 0, 20, 0) < 20) return undefined;
  } finally {
    closeSync(fd);
  }
  if (header.readUInt32BE(0) !== 0x7f454c46) return undefined;
  // e_ident[EI_DATA] (offset 5): 1 little-endian, 2 big-endian; e_machine is at offset 18.
  return header[5] === 2 ? header.readUInt16BE(18) : header.readUInt16LE(18);
}

/** Every file under a folder, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry: Dirent) => entry.isFile())
    .map((entry: Dirent) => path.join(entry.parentPath, entry.name));
}

/**
 * The file `require(moduleName)` loads its native binding from on Lambda's ARM64 runtime
 * (Amazon Linux 2023: glibc): node-gyp-build of the package itself, in a fresh Node process
 * told the target's platform, architecture and libc, with no override of the build machine's.
 */
export function resolveNativeBinding(packageDir: string, moduleName: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_arch: 'arm64', npm_config_platform: 'linux', LIBC: 'glibc' };
  for (const override of ['PREBUILDS_ONLY', 'ARM_VERSION', `${moduleName.toUpperCase().replace(/-/g, '_')}_PREBUILD`]) delete env[override];
  // The node-gyp-build the module itself requires, from the module's folder.
  const script = `const dir = process.argv[1];
    const gypBuild = require(require.resolve('node-gyp-build', { paths: [dir] }));
    process.stdout.write(gypBuild.path(dir));`;
  return execFileSync(process.execPath, ['-e', script, path.join(packageDir, 'node_modules', moduleName)], { env, encoding: 'utf8' });
}
