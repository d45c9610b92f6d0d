/**
 * Which nested stacks hold a route's pieces. CloudFormation caps a template at 500
 * resources, and each route row costs about eight (function, role, policy, log group,
 * invoke permission, method, the fallback's ANY method, path resources); one template
 * would pass that within a few dozen more rows. So each family has two nested stacks: one
 * with its functions, their roles, policies, log groups and invoke permissions (about five
 * a row), and one with its API methods and the path resources only its rows use (about
 * three a row, lib/route-api.ts). The parent keeps the RestApi, its one deployment and stage,
 * and the path resources several families share, so its count no longer follows the rows;
 * a method change still redeploys the stage, and `cdk deploy` still deploys everything.
 *
 * Families follow the path, so a new row lands in one without further code; the last
 * family takes whatever the others do not.
 */
import type { Route } from '../lambdas/routes';

export type RouteFamilyKey = 'admin' | 'token' | 'browser' | 'public';

export interface RouteFamily {
  /** Construct id of the functions' nested stack (stable: renaming it replaces the functions). */
  readonly id: string;
  /** Construct id of the nested stack of the family's API methods and path resources (lib/route-api.ts). */
  readonly methodsId: string;
  /** Names the family in props (the reserved concurrency of its functions, lib/isolation.ts). */
  readonly key: RouteFamilyKey;
  readonly description: string;
  readonly matches: (route: Route) => boolean;
}

export const routeFamilies: readonly RouteFamily[] = [
  {
    id: 'AdminApiFunctions',
    methodsId: 'AdminApiMethods',
    key: 'admin',
    description: 'Admin API (/api/admin/*)',
    matches: (r) => r.path.startsWith('/api/admin/'),
  },
  {
    id: 'TokenFunctions',
    methodsId: 'TokenMethods',
    key: 'token',
    description: 'Token endpoints (/api/token*)',
    matches: (r) => r.path.startsWith('/api/token'),
  },
  {
    id: 'BrowserFunctions',
    methodsId: 'BrowserMethods',
    key: 'browser',
    description: 'Sign-in, authorization and the dashboard (/api/auth/*, /api/authorize*, /dashboard*)',
    matches: (r) => ['/api/auth/', '/api/authorize', '/dashboard'].some((prefix) => r.path.startsWith(prefix)),
  },
  {
    id: 'PublicFunctions',
    methodsId: 'PublicMethods',
    key: 'public',
    description: 'Discovery, registration, userinfo and other public endpoints',
    matches: () => true,
  },
];

/** The family of a route row: the first whose rule matches. */
export function routeFamily(route: Route): RouteFamily {
  return routeFamilies.find((family) => family.matches(route))!;
}
