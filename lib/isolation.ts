/**
 * What keeps one route, or one flood, from taking what the others need (behaviour LIMIT-5,
 * LIMIT-6): Lambda reserved concurrency per route family and API Gateway throttling per
 * method, as data derived from the route table, so the construct, the tests and the deployment
 * guide read the same numbers.
 *
 * Reserved concurrency, the arithmetic. An account has one Lambda concurrency limit per region
 * (1,000 by default; Service Quotas, "Concurrent executions"; new accounts may start lower). A
 * function's reservation is both a floor (always there for it, whatever else runs) and a ceiling
 * (it never runs more at once), and it is taken out of the account's unreserved pool, which
 * Lambda keeps at 100 or more: a reservation that would leave less fails the deploy. The
 * defaults reserve, per function, 30 for each token endpoint, 5 for each browser and public
 * route, 2 for each admin route and 5 for the fallback (docs/deployment.md has the sum for the
 * route table as it is); everything else of the account (the jobs, the custom resources, other
 * workloads) shares what is left. A flood on the sign-in form then stops at that function's
 * reservation, and `/api/token` keeps its own, whatever the browser and admin families do.
 */
import type { Route } from '../lambdas/routes';
import { routeFamily, type RouteFamilyKey } from './route-families';

/** Reserved concurrency of each function, by route family (lib/route-families.ts), and of the fallback. */
export type ReservedConcurrency = { readonly [K in RouteFamilyKey | 'fallback']?: number };

export const defaultReservedConcurrency: Readonly<Record<RouteFamilyKey | 'fallback', number>> = {
  // The token endpoints: short requests once warm, so 30 serve about a thousand a second
  // (docs/deployment.md, "Isolation: reserved concurrency and throttling", gives the timings).
  token: 30,
  // Sign-in, authorization, the dashboard, and the public routes: an Argon2id check is slower, so 5 serve about 100 a second.
  browser: 5,
  public: 5,
  // The admin API: a handful of administrators and scripts.
  admin: 2,
  // 404 and 405 answers: cheap, and nothing a flood of unknown paths should get more of.
  fallback: 5,
};

/** The default concurrency limit of an account in a region (Service Quotas). */
export const defaultAccountConcurrencyLimit = 1000;
/** Lambda refuses a reservation that leaves the account fewer unreserved executions than this. */
export const minimumUnreservedConcurrency = 100;

export interface ConcurrencyPlan {
  /** Reserved concurrency per route name; empty when reservations are off. */
  readonly routes: Readonly<Record<string, number>>;
  readonly fallback?: number;
  /** Everything this construct reserves. */
  readonly total: number;
  readonly accountLimit: number;
  /** What is left for everything else in the account (jobs, custom resources, other workloads). */
  readonly unreserved: number;
}

/** The reservations of every route function and the fallback: `false` reserves none. */
export function concurrencyPlan(
  routes: readonly Route[],
  setting: false | ReservedConcurrency | undefined,
  accountLimit: number = defaultAccountConcurrencyLimit,
): ConcurrencyPlan {
  if (setting === false) return { routes: {}, total: 0, accountLimit, unreserved: accountLimit };
  const per = { ...defaultReservedConcurrency, ...definedOnly(setting ?? {}) };
  const byRoute = Object.fromEntries(routes.map((route) => [route.name, per[routeFamily(route).key]]));
  const total = Object.values(byRoute).reduce((sum, n) => sum + n, 0) + per.fallback;
  return { routes: byRoute, fallback: per.fallback, total, accountLimit, unreserved: accountLimit - total };
}

/** Why a plan cannot deploy, in words a deployer acts on; empty when it can. */
export function concurrencyProblems(plan: ConcurrencyPlan): string[] {
  if (plan.total === 0 || plan.unreserved >= minimumUnreservedConcurrency) return [];
  return [
    `reservedConcurrency reserves ${plan.total} concurrent executions, which would leave ${plan.unreserved} of the account's ` +
      `${plan.accountLimit} unreserved; Lambda keeps at least ${minimumUnreservedConcurrency}. Lower the family values, raise ` +
      'the account limit (Service Quotas) and say so with accountConcurrencyLimit / ACCOUNT_CONCURRENCY_LIMIT, or turn reservations off ' +
      '(reservedConcurrency: false / RESERVED_CONCURRENCY=off)',
  ];
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** API Gateway throttling: a token bucket per method, all callers together. */
export interface ThrottleSettings {
  /** Requests per second, steady. */
  readonly rateLimit: number;
  /** Requests at once above the steady rate. */
  readonly burstLimit: number;
}

/**
 * Every method of the stage, each its own bucket: above what a function of the browser or public
 * family serves with its reservation, below what the token endpoints do (see above).
 */
export const defaultApiThrottle: ThrottleSettings = { rateLimit: 500, burstLimit: 1000 };

/**
 * How many addresses, each at its edge limit, a mail-sending method serves at once: its
 * API Gateway throttle is its edge rate times this (behaviour LIMIT-6).
 */
export const defaultMailThrottleCallers = 100;

/**
 * Method-level throttle settings a stage may carry (API Gateway quotas); the stage-wide setting
 * covers every other method.
 */
export const maxMethodThrottles = 20;

export interface MethodThrottle {
  readonly route: Route;
  readonly throttle: ThrottleSettings;
}

/**
 * The methods throttled below the stage-wide setting: each row that sends mail and has an edge
 * rule of its own or of a named group (not a whole area's, such as the admin plane's), at its edge
 * rate times `callers` (a burst of at least its edge limit), so a
 * flood spread over many addresses, each under its edge limit, cannot drain the SES sending
 * quota or the account's reputation (behaviour LIMIT-6, EDGE-5). Never above the stage setting.
 */
export function methodThrottles(
  routes: readonly Route[],
  stage: ThrottleSettings = defaultApiThrottle,
  callers: number = defaultMailThrottleCallers,
): MethodThrottle[] {
  return routes
    .filter((route) => route.sendsMail && route.edge && !route.edge.shared?.pathPrefixes)
    .map((route) => {
      const { limit, windowSeconds } = route.edge!;
      const rateLimit = Math.min(stage.rateLimit, Math.round(((limit * callers) / windowSeconds) * 100) / 100);
      const burstLimit = Math.min(stage.burstLimit, Math.max(limit, Math.ceil(2 * rateLimit)));
      return { route, throttle: { rateLimit, burstLimit } };
    });
}
