/**
 * Run by the bundler after npm has installed a function's native modules (lib/bundling.ts:
 * `afterBundling`), on the build machine or in the bundling container:
 *
 *   node prune-native-packages.cjs <function package folder> <platform-arch> <libc>
 *
 * npm ran no install script (`npm_config_ignore_scripts`), so nothing was compiled; this
 * also removes any node-gyp `build/` folder that came some other way, because node-gyp-build
 * prefers `build/Release` over `prebuilds/` and a build is for the build machine, not Lambda.
 * It keeps only the prebuilt binaries of the target (`prebuilds/linux-arm64`, glibc: Amazon
 * Linux), so the loader has one candidate. A package with native code (binding.gyp) and no
 * binary for the target stops the build: it would fail to load on Lambda.
 *
 * Plain CommonJS with no dependency: it runs wherever the bundler runs npm.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [packageDir, target, libc] = process.argv.slice(2);
if (!packageDir || !target || !libc) {
  console.error('usage: node prune-native-packages.cjs <function package folder> <platform-arch> <libc>');
  process.exit(2);
}
const otherLibcs = ['glibc', 'musl'].filter((name) => name !== libc);

/** Every installed package folder (scoped and nested ones included). */
function packageFolders(nodeModules) {
  if (!fs.existsSync(nodeModules)) return [];
  const folders = [];
  for (const entry of fs.readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = path.join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) {
      folders.push(...packageFolders(dir));
      continue;
    }
    folders.push(dir, ...packageFolders(path.join(dir, 'node_modules')));
  }
  return folders;
}

const missing = [];
for (const dir of packageFolders(path.join(packageDir, 'node_modules'))) {
  const native = fs.existsSync(path.join(dir, 'binding.gyp'));
  if (native) fs.rmSync(path.join(dir, 'build'), { recursive: true, force: true });
  const prebuilds = path.join(dir, 'prebuilds');
  if (fs.existsSync(prebuilds)) {
    for (const platform of fs.readdirSync(prebuilds)) {
      if (platform !== target) fs.rmSync(path.join(prebuilds, platform), { recursive: true, force: true });
    }
    const kept = path.join(prebuilds, target);
    // node-gyp-build reads a prebuild's tags from its dot-separated name: argon2.armv8.glibc.node.
    for (const file of fs.existsSync(kept) ? fs.readdirSync(kept) : []) {
      if (file.split('.').some((tag) => otherLibcs.includes(tag))) fs.rmSync(path.join(kept, file), { force: true });
    }
  }
  const binaries = fs.existsSync(path.join(prebuilds, target)) ? fs.readdirSync(path.join(prebuilds, target)) : [];
  if (native && !binaries.some((file) => file.endsWith('.node'))) missing.push(path.basename(dir));
}
if (missing.length > 0) {
  console.error(
    `No prebuilt ${target} (${libc}) binary in: ${missing.join(', ')}. A binary built on this machine would not load on Lambda; see "Native modules" in the README.`,
  );
  process.exit(1);
}
