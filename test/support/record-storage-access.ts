/**
 * Behaviour IAM-3: the evidence that each route's storage declaration (lambdas/routes.ts
 * `storage`) covers what its code does. DynamoDB Local checks no IAM, so a grant too narrow
 * would pass every local test and break the route in AWS; this file makes the tests check it.
 *
 * Loaded before every test file (jest `setupFilesAfterEnv`). The document client's `send` is
 * wrapped before any client exists, so every client the wiring builds (also after
 * `resetContainer()`) goes through it. Each request is attributed to the route of the API Gateway
 * event being handled (lambdas/http/request-context.ts: `METHOD resource`, resolved as API Gateway
 * would), turned into what IAM authorizes (test/support/storage-access.ts), and each access is
 * matched to its key family (lambdas/adapters/dynamodb/keys/families.ts). A test fails when its requests
 * use a family or a verb its route does not declare, or a key no family matches.
 *
 * The families and verbs each route used are written to STORAGE_ACCESS_DIR (set by the global
 * setup); test/support/storage-access-reporter.js fails a full run in which a route declares
 * one that no test used, unless test/support/storage-unexercised.ts says why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type KeyFamilyName, keyFamilies, matchesLeadingKey } from '../../lambdas/adapters/dynamodb/keys/families';
import { requestFields } from '../../lambdas/http/request-context';
import { createRouter } from '../../lambdas/http/router';
import { adminSeed, jobs, type Route, routes, type StorageVerb, statisticsRollup, verbsOf } from '../../lambdas/routes';
import { accessesOf, type StorageAccess } from './storage-access';
import { unexercised } from './storage-unexercised';

const verbOf: Readonly<Record<string, StorageVerb>> = {
  GetItem: 'get',
  BatchGetItem: 'batch-get',
  Query: 'query',
  PutItem: 'put',
  UpdateItem: 'update',
  DeleteItem: 'delete',
  ConditionCheckItem: 'check',
  BatchWriteItem: 'batch-write',
};

/** The one key family of an access: the families of its table (or index) whose patterns match its key. */
export function familyOf(access: StorageAccess): KeyFamilyName | string {
  const candidates = (Object.entries(keyFamilies) as [KeyFamilyName, (typeof keyFamilies)[KeyFamilyName]][]).filter(
    ([, family]) =>
      family.table === access.table &&
      ('index' in family ? family.index : undefined) === access.index &&
      access.key !== undefined &&
      family.leadingKeys.some((pattern) => matchesLeadingKey(pattern, access.key!)),
  );
  if (candidates.length === 1) return candidates[0]![0];
  const where = `${access.table}${access.index ? `/${access.index}` : ''}`;
  return candidates.length === 0
    ? `no key family of ${where} matches ${JSON.stringify(access.key)}`
    : `${JSON.stringify(access.key)} matches several key families of ${where}: ${candidates.map(([name]) => name).join(', ')}`;
}

/** Whatever holds a storage grant: a route row, a scheduled job, the first-admin seed. */
type Grantee = Pick<Route, 'name' | 'storage'>;

/**
 * Jobs and custom resources run outside an API Gateway event; their code labels its requests with
 * `job` (lambdas/http/request-context.ts runInRequest), the name of the declaration it is granted by.
 */
const grantedWithoutRoute: ReadonlyMap<string, Grantee> = new Map(
  [...jobs, adminSeed, statisticsRollup].map((grantee) => [grantee.name, grantee]),
);

/** Why this access is not allowed to the route, or undefined when its row declares it. */
export function refusal(route: Grantee, access: StorageAccess): string | undefined {
  const family = familyOf(access);
  if (!(family in keyFamilies)) return family;
  const verb = verbOf[access.action];
  if (!verb) return `${access.action} on ${family}: no route may send it`;
  if (verbsOf(route.storage[family as KeyFamilyName]).includes(verb)) return undefined;
  return `${route.name} sends ${access.action} on ${family} (${JSON.stringify(access.key)}) but its row declares ${family}: ${JSON.stringify(verbsOf(route.storage[family as KeyFamilyName]))}`;
}

const route = createRouter();
/** route → family → verbs used, over this test file. */
const used = new Map<string, Map<string, Set<StorageVerb>>>();
let refusals: string[] = [];

/** The route (or job) whose grant the current request is sent under; none outside one. */
export function granteeOfRequest(): Grantee | undefined {
  const { route: label, job } = requestFields();
  if (typeof label === 'string') {
    const [method, resource] = label.split(' ') as [string, string];
    const found = route(method, resource);
    return found.kind === 'match' ? found.route : undefined;
  }
  if (typeof job === 'string') {
    const grantee = grantedWithoutRoute.get(job);
    if (!grantee) refusals.push(`a request labelled with job ${job}, which no declaration names (lambdas/routes.ts jobs, adminSeed)`);
    return grantee;
  }
  return undefined;
}

const original = DynamoDBDocumentClient.prototype.send;
DynamoDBDocumentClient.prototype.send = function send(this: DynamoDBDocumentClient, ...args: unknown[]) {
  const grantee = granteeOfRequest();
  if (grantee) {
    const command = args[0] as { constructor: { name: string }; input: Record<string, unknown> };
    for (const access of accessesOf(command.constructor.name, command.input)) {
      const why = refusal(grantee, access);
      if (why) refusals.push(why);
      const family = familyOf(access);
      const verb = verbOf[access.action];
      if (family in keyFamilies && verb) {
        const families = used.get(grantee.name) ?? new Map<string, Set<StorageVerb>>();
        used.set(grantee.name, families);
        families.set(family, (families.get(family) ?? new Set()).add(verb));
      }
    }
  }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;

afterEach(() => {
  const found = [...new Set(refusals)];
  refusals = [];
  if (found.length > 0) {
    throw new Error(
      `behaviour IAM-3: a route sent a DynamoDB request its row does not declare, which IAM would refuse in AWS ` +
        `(declare it in lambdas/routes.ts \`storage\`):\n- ${found.join('\n- ')}`,
    );
  }
});

afterAll(() => {
  const dir = process.env.STORAGE_ACCESS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const testPath = expect.getState().testPath ?? 'unknown';
  const file = relative(process.cwd(), testPath);
  const usedList = [...used].flatMap(([name, families]) =>
    [...families].flatMap(([family, verbs]) => [...verbs].map((verb) => [name, family, verb])),
  );
  // The seed's handler test is an infra test, outside the folders a full run's report covers.
  const declared = [...routes, ...jobs, statisticsRollup]
    .flatMap((row) =>
      (Object.entries(row.storage) as [KeyFamilyName, Route['storage'][KeyFamilyName]][]).flatMap(([family, verbs]) =>
        verbsOf(verbs).map((verb) => [row.name, family, verb]),
      ),
    )
    .filter(([name, family, verb]) => !unexercised.some((entry) => entry.route === name && entry.family === family && entry.verb === verb));
  // An entry marked `cached` may be used by one run and not the next: never held stale.
  const excused = unexercised.filter((entry) => !entry.cached).map((entry) => [entry.route, entry.family, entry.verb]);
  writeFileSync(join(dir, `${file.replace(/[/\\]/g, '__')}.json`), JSON.stringify({ file, used: usedList, declared, excused }));
});
