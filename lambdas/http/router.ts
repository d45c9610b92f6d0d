import { routes as allRoutes, type Route } from '../routes';

export type RouteLookup =
  | { readonly kind: 'match'; readonly route: Route; readonly pathParameters: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not-found' };

interface CompiledPath {
  readonly template: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly literalSegments: number;
}

function compile(template: string): CompiledPath {
  const names: string[] = [];
  let literalSegments = 0;
  const source = template
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z0-9_]+)(\+)?\}$/.exec(segment);
      if (!param) {
        literalSegments += 1;
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      names.push(param[1]!);
      return param[2] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { template, pattern: new RegExp(`^${source}/?$`), names, literalSegments };
}

/**
 * Resolves a request the way API Gateway does: the most literal matching resource
 * wins; a known resource without the method is 405, anything else 404.
 */
export function createRouter(routes: readonly Route[] = allRoutes) {
  const byTemplate = new Map<string, Route[]>();
  for (const route of routes) byTemplate.set(route.path, [...(byTemplate.get(route.path) ?? []), route]);
  const paths = [...byTemplate.keys()].map(compile).sort((a, b) => b.literalSegments - a.literalSegments);

  return (method: string, path: string): RouteLookup => {
    for (const compiled of paths) {
      const found = compiled.pattern.exec(path);
      if (!found) continue;
      const candidates = byTemplate.get(compiled.template)!;
      const route = candidates.find((r) => r.method === method.toUpperCase());
      if (!route) return { kind: 'method-not-allowed', allowed: candidates.map((r) => r.method) };
      const pathParameters: Record<string, string> = {};
      compiled.names.forEach((name, i) => {
        pathParameters[name] = safeDecode(found[i + 1]!);
      });
      return { kind: 'match', route, pathParameters };
    }
    return { kind: 'not-found' };
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
