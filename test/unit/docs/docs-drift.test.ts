/**
 * Documents that restate the route table or the rule list, checked against them (once
 * docs/deployment.md listed 12 of the 24 rate rows, behaviour EDGE-6 named one of the two
 * large-body routes, and the rule index had fallen behind the rule files).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deploymentFile, edgeRateTable, withEdgeRateTable } from '../../../bin/edge-table';
import { auditTypes } from '../../../lambdas/core/model';
import { routes } from '../../../lambdas/routes';

const behaviourDir = join(__dirname, '..', '..', '..', 'docs', 'behaviour');
const read = (file: string) => readFileSync(file, 'utf8');

test('docs/deployment.md lists every route row’s edge limit and every rate rule the web ACL deploys, as deployed (behaviour EDGE-1, EDGE-7): run `npm run docs:edge` after changing a row', () => {
  const document = read(deploymentFile);
  expect(withEdgeRateTable(document)).toBe(document);
  const rows = edgeRateTable().trim().split('\n').slice(2);
  expect(rows.filter((line) => line.startsWith('| `/')).length).toBe(routes.length);
});

test('behaviour EDGE-6 and docs/deployment.md name every route row that takes a large body', () => {
  const largeBodyRows = routes.filter((row) => row.largeBody);
  expect(largeBodyRows.length).toBeGreaterThan(0);
  const edge6 = /<a id="edge-6"><\/a>[\s\S]*?(?=<a id=|$)/.exec(read(join(behaviourDir, 'limits.md')))![0];
  const deployment = /\*\*Large bodies[\s\S]*?\n\n/.exec(read(deploymentFile))![0];
  for (const row of largeBodyRows) {
    expect(edge6).toContain(`${row.method} ${row.path}`);
    expect(deployment).toContain(`${row.method} ${row.path}`);
  }
});

test('the rule index of docs/behaviour/README.md lists every rule of the behaviour files, each once, and no other', () => {
  const defined = new Map<string, string>();
  for (const file of readdirSync(behaviourDir).filter((name) => name.endsWith('.md') && name !== 'README.md')) {
    for (const [, anchor, id] of read(join(behaviourDir, file)).matchAll(/<a id="([a-z]+-\d+)"><\/a>\n### ([A-Z]+-\d+)\b/g)) {
      expect(anchor).toBe(id!.toLowerCase());
      expect(defined.has(id!)).toBe(false);
      defined.set(id!, file);
    }
  }
  const index = read(join(behaviourDir, 'README.md')).split('## All rules')[1]!;
  const listed = [...index.matchAll(/^- \[([A-Z]+-\d+)\]\(([a-z-]+\.md)#([a-z]+-\d+)\)/gm)].map(([, id, file, anchor]) => ({
    id,
    file,
    anchor,
  }));
  expect(listed.map((entry) => entry.id).sort()).toEqual([...defined.keys()].sort());
  for (const entry of listed) {
    expect(entry.file).toBe(defined.get(entry.id!));
    expect(entry.anchor).toBe(entry.id!.toLowerCase());
  }
});

test('the list of differences from the original spec cites every rule that says it differs (docs/behaviour/README.md)', () => {
  const differing: string[] = [];
  for (const file of readdirSync(behaviourDir).filter((name) => name.endsWith('.md') && name !== 'README.md')) {
    for (const rule of read(join(behaviourDir, file)).split(/(?=<a id="[a-z]+-\d+"><\/a>)/)) {
      const id = /^<a id="[a-z]+-\d+"><\/a>\n### ([A-Z]+-\d+)\b/.exec(rule)?.[1];
      if (id && /Differs from the original spec/.test(rule)) differing.push(id);
    }
  }
  const readme = read(join(behaviourDir, 'README.md'));
  const list = readme.slice(readme.indexOf('## Differences from the original spec'), readme.indexOf('## All rules'));
  const cited = new Set([...list.matchAll(/\[([A-Z]+-\d+)\]/g)].map(([, id]) => id));
  expect(differing.length).toBeGreaterThan(10);
  expect(differing.filter((id) => !cited.has(id))).toEqual([]);
  expect(list).not.toMatch(/not built yet/i);
});

test('docs/admin-api.md lists every audit entry type once, in the order of auditTypes (behaviour LOG-4, LOG-9, DASH-5 refer to that one list)', () => {
  const adminApi = read(join(__dirname, '..', '..', '..', 'docs', 'admin-api.md'));
  const section = /<a id="audit-entry-types"><\/a>[\s\S]*?\n\n(?:\|.*\n)+/.exec(adminApi)![0];
  const listed = [...section.matchAll(/^\| `([a-z_.]+)` \|/gm)].map(([, type]) => type);
  expect(listed).toEqual([...auditTypes]);
});
