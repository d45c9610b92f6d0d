/**
 * The API Gateway pieces that grow with the route table, in a nested stack per route family
 * (lib/route-families.ts `methodsId`): each row's method, the fallback's ANY method on every
 * routed path, the CORS preflights, and the path resources only that family's rows use. The
 * parent keeps the RestApi, its deployment and stage, the root's two fallback methods and the
 * path resources several families share (`/api`), so its template no longer grows with the
 * rows (CloudFormation's 500 resources per template).
 *
 * Beside the functions' stacks rather than in them: the admin family's functions already cost
 * five resources a row, and three more each would bring it to 400 some thirty rows sooner. Each
 * method's integration names its function's ARN, an output of the functions' stack passed in as
 * a parameter: one of CloudFormation's 200 outputs and 200 parameters per row, which the
 * functions' 400 resources run out of first.
 *
 * A method change still redeploys the stage: the methods are made on the RestApi itself, not on
 * an imported one, so each adds its properties to the hash that names the deployment, and the
 * deployment depends on the method, which CDK turns into a dependency on the method's nested
 * stack. A changed method then brings a new deployment, made after its stack is updated.
 * (CDK's documented pattern, methods on `RestApi.fromRestApiAttributes`, leaves that to a
 * deployment by hand.)
 */
import { NestedStack, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import type { Route } from '../lambdas/routes';
import { crossOriginMethodsByPath, preflightMethod } from './cors-preflight';
import { type RouteFamily, routeFamily } from './route-families';

export interface RouteApiProps {
  readonly api: apigateway.RestApi;
  readonly routes: readonly Route[];
  /** The integration of a row's method: its function. */
  readonly integrationOf: (route: Route) => apigateway.Integration;
  /** The fallback's (404, 405), on every routed path for the methods no row takes. */
  readonly fallback: apigateway.Integration;
}

/**
 * Every routed path's resources and methods; returns the nested stacks that hold them, by
 * construct id. The root's own methods are the caller's, in the parent.
 */
export function addRouteMethods(scope: Construct, { api, routes, integrationOf, fallback }: RouteApiProps): Record<string, NestedStack> {
  const stacks: Record<string, NestedStack> = {};
  const stackOf = (family: RouteFamily): NestedStack =>
    (stacks[family.methodsId] ??= new NestedStack(scope, family.methodsId, { description: `API methods: ${family.description}` }));

  // A path resource belongs to a family when every row at or under it is that family's, else to
  // the parent. Families go by path prefix, so a new row moves no resource between templates
  // (which CloudFormation cannot do in place: API Gateway refuses two resources with one path
  // part under one parent) unless it sits on another family's prefix itself, say a public row at
  // `/api/auth`.
  const familiesUnder = new Map<string, Set<RouteFamily>>();
  for (const route of routes) {
    for (const path of resourcePaths(route.path)) {
      familiesUnder.set(path, (familiesUnder.get(path) ?? new Set()).add(routeFamily(route)));
    }
  }
  const resources = new Map<string, apigateway.IResource>([['/', api.root]]);
  const resourceFor = (path: string): apigateway.IResource => {
    const known = resources.get(path);
    if (known) return known;
    const cut = path.lastIndexOf('/');
    const parent = resourceFor(cut === 0 ? '/' : path.slice(0, cut));
    const pathPart = path.slice(cut + 1);
    const families = [...familiesUnder.get(path)!];
    const owner = families.length === 1 ? stackOf(families[0]!) : Stack.of(parent);
    const resource =
      Stack.of(parent) === owner ? parent.addResource(pathPart) : new apigateway.Resource(owner, constructId(path), { parent, pathPart });
    resources.set(path, resource);
    return resource;
  };
  const addMethod = (path: string, httpMethod: string, integration: apigateway.Integration, options?: apigateway.MethodOptions) => {
    const resource = resourceFor(path);
    const stack = stackOf(routeFamily(routes.find((route) => route.path === path)!));
    // A path several families share keeps its resource in the parent; its methods still go to its rows' family.
    if (Stack.of(resource) === stack) return resource.addMethod(httpMethod, integration, options);
    return new apigateway.Method(stack, `${constructId(path)}.${httpMethod}`, { resource, httpMethod, integration, options });
  };

  for (const route of routes) addMethod(route.path, route.method, integrationOf(route));
  for (const [path, methods] of crossOriginMethodsByPath(routes)) {
    const { integration, options } = preflightMethod(methods);
    addMethod(path, 'OPTIONS', integration, options);
  }
  for (const path of new Set(routes.map((route) => route.path))) addMethod(path, 'ANY', fallback);
  return stacks;
}

/** `/api/admin/users` → `/api`, `/api/admin`, `/api/admin/users`. */
function resourcePaths(path: string): string[] {
  const parts = path.split('/').slice(1);
  return parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/** A construct id naming a path (ids cannot hold `/`). */
const constructId = (path: string): string => path.slice(1).split('/').join('.');
