/**
 * The edge rules as data, derived from the route table (lambdas/routes.ts): pure
 * functions with no CDK construct, so tests and the README table read the same values
 * the WebACL (lib/web-acl.ts) deploys.
 *
 * How a rate is fitted to AWS WAF. A rate-based rule counts requests per client IP over
 * a window of 60, 120, 300 or 600 seconds and accepts a limit of 10 or more. A row whose
 * `edge` is already within those bounds is deployed exactly. Any other rate L per W
 * seconds is fitted to the nearest setting that is stricter or equal in the long run
 * (never more requests per second than L/W): for each allowed window w, the largest
 * integer limit floor(L × w / W); the candidates with a limit of at least 10 are kept,
 * and the one whose window is nearest W wins (the shorter window on a tie, which also
 * bounds bursts more tightly). When no candidate reaches 10 (a rate under 10 per
 * 600 s, one a minute), WAF cannot express it: the strictest setting, 10 per 600 s,
 * is used and flagged `looser`, and the service itself must hold the real limit.
 * Example: behaviour EDGE-3's "about 5 / 5 minutes" (1 a minute) becomes 10 per 600 s, the same
 * long-run rate with a burst of 10 instead of 5.
 * A fitted row is reported at synth (an annotation) and fails the unit test that every
 * row is exactly representable, so the row states its WAF values and reason in code.
 */
import type { EdgeRule, HttpMethod, Route } from '../lambdas/routes';

export const wafWindows = [60, 120, 300, 600] as const;
export const wafMinimumLimit = 10;

export interface WafRate {
  readonly limit: number;
  readonly windowSeconds: (typeof wafWindows)[number];
}

export interface FittedRate extends WafRate {
  /** The requested rate was already a valid WAF setting. */
  readonly exact: boolean;
  /** WAF cannot be as strict as requested (a rate under 10 per 600 s). */
  readonly looser: boolean;
}

/** The nearest stricter-or-equal AWS WAF setting for `limit` requests per `windowSeconds`. */
export function fitRate(limit: number, windowSeconds: number): FittedRate {
  if (!(limit > 0) || !(windowSeconds > 0)) throw new Error(`invalid rate ${limit} per ${windowSeconds} s`);
  const window = wafWindows.find((w) => w === windowSeconds);
  if (window && Number.isInteger(limit) && limit >= wafMinimumLimit) {
    return { limit, windowSeconds: window, exact: true, looser: false };
  }
  const candidates = wafWindows
    .map((w) => ({ windowSeconds: w, limit: Math.floor((limit * w) / windowSeconds + 1e-9) }))
    .filter((c) => c.limit >= wafMinimumLimit)
    .sort(
      (a, b) => Math.abs(a.windowSeconds - windowSeconds) - Math.abs(b.windowSeconds - windowSeconds) || a.windowSeconds - b.windowSeconds,
    );
  const best = candidates[0];
  if (!best) return { limit: wafMinimumLimit, windowSeconds: 600, exact: false, looser: true };
  return { ...best, exact: false, looser: false };
}

/**
 * The URI path WAF sees. Through the execute-api address it starts with the stage
 * (`/prod/api/token`); through a custom domain mapped at the root it does not
 * (`/api/token`). Every path pattern therefore accepts an optional stage prefix.
 */
export function pathPattern(routePath: string, stageName: string): string {
  const body = routePath
    .split('/')
    .map((segment) => {
      if (/^\{[^}]+\+\}$/.test(segment)) return '.+'; // greedy {proxy+}
      if (/^\{[^}]+\}$/.test(segment)) return '[^/]+'; // one {param} segment
      return escapeRegex(segment);
    })
    .join('/');
  // An optional trailing slash: API Gateway routes `/api/token/` to the same method.
  return `^(/${escapeRegex(stageName)})?${body}/?$`;
}

/**
 * A route path as a strict pattern, for letting a route through a rule (the admin allowlist's
 * self-service routes): each `{param}` is one segment of letters, digits, `_` and `-` (every
 * client id and key id the server issues), so no `.` or `..` segment, no `%`, no empty segment
 * can stand in for one. Matched on the URL-decoded path without normalizing it: a path that
 * needs normalizing to match is not let through. An optional trailing slash, as pathPattern.
 */
export function strictPathPattern(routePath: string, stageName: string): string {
  if (routePath.includes('+}')) throw new Error(`a greedy path cannot be matched strictly: ${routePath}`);
  const body = routePath
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[A-Za-z0-9_-]+' : escapeRegex(segment)))
    .join('/');
  return `^(/${escapeRegex(stageName)})?${body}/?$`;
}

/**
 * Pattern for a path prefix starting at any segment, stage or not: `/api/admin/` matches
 * `/prod/api/admin/users`, and also `/../api/admin/users` or `/x/api/admin/users`, spellings a
 * normalizing proxy could route to the admin API. For a rule that must catch every spelling.
 */
export function anywherePattern(prefix: string): string {
  return `(^|/)${escapeRegex(prefix.replace(/^\/+/, ''))}`;
}

/** Pattern for a path prefix (`/dashboard` matches `/dashboard`, `/dashboard/x` and `/dashboards`). */
export function prefixPattern(prefix: string, stageName: string): string {
  return `^(/${escapeRegex(stageName)})?${escapeRegex(prefix)}`;
}

/**
 * Pattern for everything under a prefix, by segments: `/api/admin/` matches `/api/admin/users`;
 * `/dashboard` matches `/dashboard` and `/dashboard/x`, never `/dashboards`. Stage optional.
 */
export function underPattern(prefix: string, stageName: string): string {
  const body = prefix.endsWith('/') ? escapeRegex(prefix) : `${escapeRegex(prefix)}(/|$)`;
  return `^(/${escapeRegex(stageName)})?${body}`;
}

/**
 * One pattern for several route paths, the stage and the trailing slash written once:
 * `^(/prod)?(/a|/b/[^/]+)/?$`. Each path as in pathPattern.
 */
export function pathsPattern(routePaths: readonly string[], stageName: string): string {
  if (routePaths.length === 1) return pathPattern(routePaths[0]!, stageName);
  const bodies = routePaths.map((path) =>
    pathPattern(path, stageName)
      .replace(/^\^\(\/[^)]*\)\?/, '')
      .replace(/\/\?\$$/, ''),
  );
  return `^(/${escapeRegex(stageName)})?(${bodies.join('|')})/?$`;
}

/** AWS WAF refuses a regex longer than this (AWS WAF quotas: characters in a regex pattern). */
export const wafRegexMaxLength = 200;

/**
 * Path prefixes whose paths carry ids that may be percent-encoded (a client id that is a URL):
 * rules there read the URL-decoded path; everywhere else a path must be spelled canonically
 * (behaviour EDGE-8), so rules read it as sent.
 */
export const encodedPathPrefixes: readonly string[] = ['/api/admin/', '/dashboard'];

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** AWS WAF allows this many rate-based rules in a web ACL (AWS WAF quotas; it cannot be raised). */
export const wafMaxRateBasedRules = 10;

/**
 * One WAF rate rule (behaviour EDGE-1, EDGE-7). Rows with the same limit, window and action and no
 * `shared` group are counted by one rule, each path on its own counter per address (the rule
 * aggregates by address and URI path); a challenge row is also counted by the block rule at
 * challengeCeilingFactor times its limit. Rows with a `shared` group are counted together per
 * address. A rule of one path counts per address alone (the cheaper aggregation, the same counts).
 */
export interface EdgeRateRule {
  /** WAF rule name: `Rate-<limit>per<window>s-<Action>` for a class, `Rate-<group>` for a group. */
  readonly name: string;
  /** The route rows it counts (for a ceiling, the challenge rows it backs), in table order. */
  readonly routes: readonly string[];
  /** Per method, the route paths it counts; empty with pathPrefixes (every method there). */
  readonly paths: readonly { readonly method: HttpMethod; readonly paths: readonly string[] }[];
  /** A group's prefixes: every request under them, whatever its method. */
  readonly pathPrefixes?: readonly string[];
  /** `per-path`: one counter per address and path; `together`: one per address for all it counts. */
  readonly counting: 'per-path' | 'together';
  /** The path regexes read the URL-decoded path (the prefixes of encodedPathPrefixes), else the path as sent. */
  readonly decoded: boolean;
  readonly limit: number;
  readonly windowSeconds: WafRate['windowSeconds'];
  readonly action: EdgeRule['action'];
  /** The challenge rows whose hard ceiling this (block) rule also is. */
  readonly ceilingFor?: readonly string[];
}

/** A browser that solved a challenge is still blocked past this multiple of its row's rate. */
export const challengeCeilingFactor = 3;

type EdgeRow = Route & { edge: EdgeRule };

const inPrefix = (path: string, prefix: string) =>
  prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`);

const byMethod = (entries: readonly { method: HttpMethod; path: string }[]) => {
  const methods = new Map<HttpMethod, string[]>();
  for (const { method, path } of entries) {
    const paths = methods.get(method) ?? [];
    if (!paths.includes(path)) paths.push(path);
    methods.set(method, paths);
  }
  return [...methods].map(([method, paths]) => ({ method, paths }));
};

/**
 * The rate rules of the route table, classes first (strictest window first), then groups.
 * @throws Error when a group's rows disagree, a row counted per path has a `{param}` segment or
 *   sits under an encoded-path prefix, or two rows of a class share a path
 */
export function edgeRateRules(rows: readonly Route[], stageName: string): EdgeRateRule[] {
  const fitted = rows
    .filter((row): row is EdgeRow => row.edge !== undefined)
    .map((row) => ({ row, rate: fitRate(row.edge.limit, row.edge.windowSeconds) }));

  // Classes: counted per path.
  type Entry = { row: EdgeRow; ceiling: boolean };
  const classes = new Map<
    string,
    { limit: number; windowSeconds: WafRate['windowSeconds']; action: EdgeRule['action']; entries: Entry[] }
  >();
  const addTo = (limit: number, windowSeconds: WafRate['windowSeconds'], action: EdgeRule['action'], entry: Entry) => {
    const key = `${limit}/${windowSeconds}/${action}`;
    const found = classes.get(key) ?? { limit, windowSeconds, action, entries: [] };
    found.entries.push(entry);
    classes.set(key, found);
  };
  for (const { row, rate } of fitted.filter(({ row }) => !row.edge.shared)) {
    if (row.path.includes('{'))
      throw new Error(`${row.name}: a path with ids (${row.path}) cannot be counted per path; share a prefix rule`);
    if (encodedPathPrefixes.some((prefix) => inPrefix(row.path, prefix))) {
      throw new Error(`${row.name}: ${row.path} may be spelled percent-encoded; share the prefix rule of its area`);
    }
    addTo(rate.limit, rate.windowSeconds, row.edge.action, { row, ceiling: false });
    if (row.edge.action === 'challenge') addTo(rate.limit * challengeCeilingFactor, rate.windowSeconds, 'block', { row, ceiling: true });
  }
  const classRules = [...classes.values()]
    .sort((a, b) => b.windowSeconds - a.windowSeconds || a.limit - b.limit || a.action.localeCompare(b.action))
    .map(({ limit, windowSeconds, action, entries }): EdgeRateRule => {
      const paths = byMethod(entries.map(({ row }) => row));
      const all = paths.flatMap((p) => p.paths);
      const shared = all.find((path, i) => all.indexOf(path) !== i);
      if (shared) throw new Error(`two rows counted per path by the ${limit}/${windowSeconds}s ${action} rule share ${shared}`);
      const ceilings = entries.filter((entry) => entry.ceiling).map(({ row }) => row.name);
      return {
        name: `Rate-${limit}per${windowSeconds}s-${action === 'block' ? 'Block' : 'Challenge'}`,
        routes: entries.map(({ row }) => row.name),
        paths,
        counting: all.length > 1 ? 'per-path' : 'together',
        decoded: false,
        limit,
        windowSeconds,
        action,
        ...(ceilings.length > 0 ? { ceilingFor: ceilings } : {}),
      };
    });

  // Groups: counted together.
  const groups = new Map<string, EdgeRow[]>();
  for (const { row } of fitted.filter(({ row }) => row.edge.shared)) {
    groups.set(row.edge.shared!.name, [...(groups.get(row.edge.shared!.name) ?? []), row]);
  }
  const groupRules = [...groups].flatMap(([name, members]): EdgeRateRule[] => {
    const [first] = members;
    const edge = first!.edge;
    const prefixes = edge.shared!.pathPrefixes;
    for (const row of members) {
      const other = row.edge;
      if (
        other.limit !== edge.limit ||
        other.windowSeconds !== edge.windowSeconds ||
        other.action !== edge.action ||
        JSON.stringify(other.shared?.pathPrefixes) !== JSON.stringify(prefixes)
      ) {
        throw new Error(
          `Rate-${name}: rows ${first!.name} and ${row.name} share an edge rule but not its limit, window, action or prefixes`,
        );
      }
      if (prefixes && !prefixes.some((prefix) => inPrefix(row.path, prefix))) {
        throw new Error(`Rate-${name}: ${row.name} (${row.path}) is not under ${prefixes.join(' or ')}`);
      }
    }
    const rate = fitRate(edge.limit, edge.windowSeconds);
    const paths = prefixes ? [] : byMethod(members);
    const decoded =
      prefixes !== undefined
        ? prefixes.some((prefix) => encodedPathPrefixes.some((area) => inPrefix(prefix, area) || inPrefix(area, prefix)))
        : members.some((row) => encodedPathPrefixes.some((area) => inPrefix(row.path, area)));
    const base = {
      routes: members.map((row) => row.name),
      paths,
      ...(prefixes ? { pathPrefixes: prefixes } : {}),
      counting: 'together' as const,
      decoded,
      windowSeconds: rate.windowSeconds,
    };
    const rule: EdgeRateRule = { ...base, name: `Rate-${name}`, limit: rate.limit, action: edge.action };
    if (edge.action !== 'challenge') return [rule];
    return [
      rule,
      { ...base, name: `Rate-${name}-Ceiling`, limit: rate.limit * challengeCeilingFactor, action: 'block', ceilingFor: base.routes },
    ];
  });

  const rules = [...classRules, ...groupRules];
  const names = rules.map((rule) => rule.name);
  const taken = names.find((n, i) => names.indexOf(n) !== i);
  if (taken) throw new Error(`two WAF rules would be named ${taken}: rename the shared group`);
  for (const rule of rules) {
    for (const regex of pathRegexes(rule, stageName)) {
      if (regex.length > wafRegexMaxLength)
        throw new Error(`${rule.name}: a path regex of ${regex.length} characters, over AWS WAF's ${wafRegexMaxLength}`);
    }
  }
  return rules;
}

/** The rule that counts a row against its own limit (not the ceiling of a challenge row). */
export function edgeRuleOf(rules: readonly EdgeRateRule[], routeName: string): EdgeRateRule | undefined {
  return rules.find((rule) => rule.routes.includes(routeName) && !rule.ceilingFor?.includes(routeName));
}

/** One row's rate as deployed: its own row values, fitted to WAF when they had to be (see fitRate). */
export interface EdgeRowRate {
  readonly route: Route;
  readonly limit: number;
  readonly windowSeconds: WafRate['windowSeconds'];
  /** What the row asked for, when it had to be fitted. */
  readonly requested?: { readonly limit: number; readonly windowSeconds: number; readonly looser: boolean };
}

export function edgeRowRates(rows: readonly Route[]): EdgeRowRate[] {
  return rows
    .filter((row): row is EdgeRow => row.edge !== undefined)
    .map((row) => {
      const fitted = fitRate(row.edge.limit, row.edge.windowSeconds);
      return {
        route: row,
        limit: fitted.limit,
        windowSeconds: fitted.windowSeconds,
        ...(fitted.exact ? {} : { requested: { limit: row.edge.limit, windowSeconds: row.edge.windowSeconds, looser: fitted.looser } }),
      };
    });
}

/**
 * The regexes of a rule on the URI path, each within AWS WAF's 200 characters: a group's
 * prefixes as one, each method's paths as few as fit.
 */
export function pathRegexes(rule: EdgeRateRule, stageName: string, methodPaths?: readonly string[]): string[] {
  if (rule.pathPrefixes) return [rule.pathPrefixes.map((prefix) => underPattern(prefix, stageName)).join('|')];
  return chunkPaths(methodPaths ?? rule.paths.flatMap((p) => p.paths), stageName).map((paths) => pathsPattern(paths, stageName));
}

/** Route paths in groups whose pathsPattern stays within AWS WAF's regex length. */
export function chunkPaths(paths: readonly string[], stageName: string): string[][] {
  const groups: string[][] = [];
  for (const path of paths) {
    const last = groups[groups.length - 1];
    if (last && pathsPattern([...last, path], stageName).length <= wafRegexMaxLength) last.push(path);
    else groups.push([path]);
  }
  return groups;
}
