/**
 * Every source path the documents name exists. Files move between rooms (lambdas/http/step-up.ts
 * went to lambdas/presentation/), and a stale path in a behaviour file's "Code:" list, the README
 * or CONTRIBUTING.md sends a reader to nothing. Checked: paths under lambdas/, lib/, bin/ and
 * test/ in docs/**\/*.md, README.md and CONTRIBUTING.md; a path with `*` by the part before it,
 * `{a,b}` as each of its spellings.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const checkedRoots = ['lambdas', 'lib', 'bin', 'test'] as const;

/** A path as written, optionally after `../`s; braces hold alternatives, `*` is a glob. */
const pathPattern = /(?<![\w./@-])(?:\.\.\/)*((?:lambdas|lib|bin|test)\/(?:[\w.*/-]|\{[\w.,/-]*\})*)/g;

interface NamedPath {
  readonly line: number;
  readonly path: string;
}

/** The lambdas/, lib/, bin/ and test/ paths a Markdown text names, with their line numbers. */
function namedPaths(text: string): NamedPath[] {
  const found: NamedPath[] = [];
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(pathPattern)) {
      // A sentence may end right after a path: "see lambdas/routes.ts."
      found.push({ line: index + 1, path: match[1]!.replace(/\.+$/, '') });
    }
  });
  return found;
}

/** `lambdas/http/{a,b}.ts` as `lambdas/http/a.ts` and `lambdas/http/b.ts`. */
function spellings(path: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(path);
  if (!brace) return [path];
  return brace[1]!
    .split(',')
    .flatMap((choice) => spellings(path.slice(0, brace.index) + choice + path.slice(brace.index + brace[0].length)));
}

function walk(dir: string, into: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = join(dir, entry.name);
    into.push(`${relative(root, full)}${entry.isDirectory() ? '/' : ''}`);
    if (entry.isDirectory()) walk(full, into);
  }
  return into;
}

/** Whether `path` names a file or folder of `tree` (relative paths, folders ending in `/`). */
function exists(path: string, tree: readonly string[]): boolean {
  return spellings(path).every((spelling) => {
    const star = spelling.indexOf('*');
    if (star >= 0) return tree.some((entry) => entry.startsWith(spelling.slice(0, star)));
    const bare = spelling.replace(/\/$/, '');
    return tree.includes(bare) || tree.includes(`${bare}/`);
  });
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

describe('the path finder', () => {
  it('finds paths in backticks, links and prose, after ../, without a sentence’s full stop', () => {
    const text = [
      'Code: `lambdas/core/account/*`, `lambdas/http/{session,cookies}.ts`.',
      'See [the table](../../lambdas/routes.ts) and lib/bundling.ts.',
      'Tests: test/handlers/token-*.test.ts',
    ].join('\n');
    expect(namedPaths(text)).toEqual([
      { line: 1, path: 'lambdas/core/account/*' },
      { line: 1, path: 'lambdas/http/{session,cookies}.ts' },
      { line: 2, path: 'lambdas/routes.ts' },
      { line: 2, path: 'lib/bundling.ts' },
      { line: 3, path: 'test/handlers/token-*.test.ts' },
    ]);
  });

  it('leaves alone what only ends like a source path (packages, system folders, URLs)', () => {
    const text = 'aws-cdk-lib/aws-lambda, node_modules/.bin/jest, /usr/bin/node, sbin/x, https://example.com/lib/x.js, @scope/test/x';
    expect(namedPaths(text)).toEqual([]);
  });

  it('checks a glob by its prefix and braces by each spelling', () => {
    const tree = ['lambdas/', 'lambdas/http/', 'lambdas/http/session.ts', 'lambdas/http/cookies.ts', 'test/handlers/token-a.test.ts'];
    expect(exists('lambdas/http/{session,cookies}.ts', tree)).toBe(true);
    expect(exists('lambdas/http/{session,step-up}.ts', tree)).toBe(false);
    expect(exists('test/handlers/token-*.test.ts', tree)).toBe(true);
    expect(exists('test/handlers/admin-*.test.ts', tree)).toBe(false);
    expect(exists('lambdas/http/', tree)).toBe(true);
    expect(exists('lambdas/http', tree)).toBe(true);
    expect(exists('lambdas/presentation/step-up.ts', tree)).toBe(false);
  });
});

test('every lambdas/, lib/, bin/ and test/ path named in docs/**/*.md, README.md and CONTRIBUTING.md exists (a file moved: fix the document)', () => {
  const tree = checkedRoots.flatMap((dir) => walk(join(root, dir), [`${dir}/`]));
  const documents = [...markdownFiles(join(root, 'docs')), join(root, 'README.md'), join(root, 'CONTRIBUTING.md')];
  const named = documents.flatMap((file) =>
    namedPaths(readFileSync(file, 'utf8')).map((found) => ({ ...found, document: relative(root, file) })),
  );
  expect(named.length).toBeGreaterThan(100);
  const missing = named
    .filter((found) => !exists(found.path, tree))
    .map((found) => `${found.document}:${found.line} names ${found.path}, which does not exist`);
  expect(missing).toEqual([]);
});
