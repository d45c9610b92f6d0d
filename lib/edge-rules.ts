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

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One WAF rate rule, derived from one route row. */
export interface EdgeRateRule {
  /** WAF rule name (unique, stable: the route's name). */
  readonly name: string;
  readonly route: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Regex on the URI path (see pathPattern). */
  readonly pathRegex: string;
  readonly limit: number;
  readonly windowSeconds: WafRate['windowSeconds'];
  readonly action: EdgeRule['action'];
  /** What the row asked for, when it had to be fitted. */
  readonly requested?: { readonly limit: number; readonly windowSeconds: number; readonly looser: boolean };
  readonly rationale: string;
}

/** One rate rule per row with `edge`, in table order. */
export function edgeRateRules(rows: readonly Route[], stageName: string): EdgeRateRule[] {
  return rows
    .filter((row): row is Route & { edge: EdgeRule } => row.edge !== undefined)
    .map((row) => {
      const fitted = fitRate(row.edge.limit, row.edge.windowSeconds);
      return {
        name: `Rate-${row.name}`,
        route: row.name,
        method: row.method,
        path: row.path,
        pathRegex: pathPattern(row.path, stageName),
        limit: fitted.limit,
        windowSeconds: fitted.windowSeconds,
        action: row.edge.action,
        ...(fitted.exact ? {} : { requested: { limit: row.edge.limit, windowSeconds: row.edge.windowSeconds, looser: fitted.looser } }),
        rationale: row.edge.rationale,
      };
    });
}
