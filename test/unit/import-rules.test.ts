/**
 * The layering of lambdas/ (CONTRIBUTING.md, "Where things live"), checked over the import graph
 * so it cannot rot silently: each room names the rooms it may import from. A `type`-only entry
 * allows `import type` alone (a shape, no code at run time).
 */
import fs from 'node:fs';
import path from 'node:path';

const lambdas = path.join(__dirname, '../../lambdas');

type Allowed = readonly string[];
/** Room -> the rooms it may import from (its own room always). `room:type` = `import type` only. */
const mayImport: Record<string, Allowed> = {
  bundling: [],
  core: [],
  config: ['core'],
  adapters: ['core', 'config'],
  routes: ['core', 'adapters:type'],
  http: ['core', 'config', 'routes', 'adapters'],
  presentation: ['http', 'core', 'config'],
  wiring: ['presentation', 'http', 'core', 'adapters', 'config', 'routes'],
  handlers: ['wiring', 'presentation', 'http', 'core', 'config'],
  'resource-server': ['adapters', 'core'],
  bootstrap: ['adapters', 'core', 'config'],
  jobs: ['wiring', 'http', 'adapters', 'core', 'config'],
  'custom-resources': ['wiring', 'http', 'adapters', 'core', 'config', 'routes', 'bootstrap'],
  local: ['wiring', 'http', 'adapters', 'core', 'config', 'routes', 'bootstrap'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function roomOf(relative: string): string {
  return (relative.split('/')[0] ?? '').replace(/\.ts$/, '');
}

interface ImportEdge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

const importPattern = /^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm;

function importsOf(file: string): ImportEdge[] {
  const text = fs.readFileSync(file, 'utf8');
  const from = path.relative(lambdas, file).split(path.sep).join('/');
  const edges: ImportEdge[] = [];
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[3] ?? match[4] ?? '';
    const target = path
      .relative(lambdas, path.resolve(path.dirname(file), specifier))
      .split(path.sep)
      .join('/');
    if (target.startsWith('..')) continue;
    edges.push({ from, to: target, typeOnly: Boolean(match[2]) });
  }
  return edges;
}

const edges = sourceFiles(lambdas).flatMap(importsOf);

function breaksRule(edge: ImportEdge): boolean {
  const fromRoom = roomOf(edge.from);
  const toRoom = roomOf(edge.to);
  if (fromRoom === toRoom) return false;
  const allowed = mayImport[fromRoom];
  if (!allowed) return true;
  return !(allowed.includes(toRoom) || (edge.typeOnly && allowed.includes(`${toRoom}:type`)));
}

describe('import rules of lambdas/ (CONTRIBUTING.md)', () => {
  test('every room of lambdas/ has a rule', () => {
    const rooms = new Set(edges.map((edge) => roomOf(edge.from)));
    expect([...rooms].filter((room) => !(room in mayImport))).toEqual([]);
  });

  test('no import points up or sideways past the rules (core imports no other room: not even config)', () => {
    expect(edges.filter(breaksRule).map((edge) => `${edge.from} -> ${edge.to}`)).toEqual([]);
  });

  test('the rule reads both import forms (a deliberate upward import is caught)', () => {
    expect(breaksRule({ from: 'core/tokens.ts', to: 'http/body', typeOnly: false })).toBe(true);
    expect(breaksRule({ from: 'core/tokens.ts', to: 'config/settings', typeOnly: true })).toBe(true);
    expect(breaksRule({ from: 'routes.ts', to: 'adapters/dynamodb/table-definitions', typeOnly: true })).toBe(false);
    expect(breaksRule({ from: 'routes.ts', to: 'adapters/dynamodb/table-definitions', typeOnly: false })).toBe(true);
    expect(edges.some((edge) => edge.typeOnly)).toBe(true);
  });
});
