/**
 * The README's shell examples run as pasted: every variable a `sh` block reads is set by that block
 * or an earlier one, or is one the prose asks the reader to fill in; every tool they call beyond
 * the shell is in the prerequisites. Once they used `$CLIENT_ID`, `$CLIENT_SECRET` and `jq`
 * without setting or listing them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
const shellBlocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** Values only the reader has (a client, key or token of their own), each named in the text before its block. */
const filledInByReader = ['APP_CLIENT_ID', 'ID_JAG', 'PLATFORM_JWT'];

test('every variable a README shell example reads is set before it, or named as one the reader fills in', () => {
  const set = new Set<string>();
  const unset: string[] = [];
  for (const block of shellBlocks) {
    for (const line of block.split('\n')) {
      const code = line.replace(/(^|\s)#.*$/, '');
      for (const [, name] of code.matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)) {
        if (!set.has(name!) && !filledInByReader.includes(name!)) unset.push(`${name}: ${line.trim()}`);
      }
      for (const [, name] of code.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=/g)) set.add(name!);
    }
  }
  expect(unset).toEqual([]);
  for (const name of filledInByReader) expect(readme).toContain(`\`${name}\``);
});

test('the prerequisites list the tools the README examples call: curl and jq', () => {
  const prerequisites = readme.slice(readme.indexOf('Prerequisites'), readme.indexOf('Prerequisites') + 1500);
  const usesJq = shellBlocks.some((block) => /\|\s*jq\b|\bjq -r\b/.test(block));
  expect(usesJq).toBe(true);
  expect(prerequisites).toMatch(/\*\*curl\*\* and \*\*jq\*\*/);
});
