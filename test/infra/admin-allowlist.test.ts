/**
 * The admin IP allowlist as synthesized (behaviour EDGE-4, KEYM-2): the
 * self-service API-key routes, which end users call with their own token, pass from any
 * address; every other admin route and the dashboard is refused outside the allowlist, however
 * its path is spelled (double slashes, case, percent-encoding, dot segments, trailing slash).
 *
 * The WebACL rule's statement is evaluated here as AWS WAF evaluates it (and / or / not,
 * method byte match, regex on the URI path after its text transformations, IP set). Whether a
 * spelling reaches an admin route is judged by the most permissive reading any server in front
 * of the functions could make of it (decoded repeatedly, slashes collapsed, dot segments
 * resolved, case folded): every spelling that could reach a route that is not self-service
 * must be blocked.
 */
import { routes, type Route } from '../../lambdas/routes';
import { logicalId, resources, synthesize, type Synthesized } from './synthesize';
import { matches, transform } from './waf-evaluator';

let full: Synthesized;
beforeAll(() => {
  full = synthesize({ ADMIN_ALLOWED_CIDRS: '203.0.113.0/24,2001:db8::/32' });
});

interface Request {
  readonly method: string;
  readonly path: string;
  readonly inAllowlist: boolean;
}

const webAcl = () => Object.values(resources(full.template, 'AWS::WAFv2::WebACL'))[0]!.Properties;
const allowlistRule = () => webAcl().Rules.find((r: { Name: string }) => r.Name === 'AdminAllowlist');

const blocked = (request: Request) => matches(allowlistRule().Statement, request);

/** The most permissive reading of a path: what a normalizing proxy or router could route it as. */
function permissiveReading(path: string): string {
  let decoded = path;
  for (let i = 0; i < 3; i++) decoded = transform(decoded, 'URL_DECODE');
  const out: string[] = [];
  for (const segment of decoded.toLowerCase().split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  if (out[0] === 'prod') out.shift();
  return `/${out.join('/')}`;
}

/** The route rows a path could reach under that reading. */
function reachable(method: string, path: string): Route[] {
  const reading = permissiveReading(path);
  return routes.filter((row) => {
    if (row.method !== method) return false;
    const pattern = row.path
      .toLowerCase()
      .split('/')
      .map((s) => (/^\{[^}]+\+\}$/.test(s) ? '.+' : /^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    return new RegExp(`^${pattern}$`).test(reading);
  });
}

const concrete = (path: string) =>
  path
    .replace('{client_id}', 'tgc_Ab3-x_9')
    .replace('{key_id}', '0123456789abcdef')
    .replace('{user_id}', 'usr_1')
    .replace(/\{[^}]+\+\}/, 'users')
    .replace(/\{[^}]+\}/g, 'x1');
const adminRows = routes.filter((row) => row.path.startsWith('/api/admin/') || row.path.startsWith('/dashboard'));
const selfServiceRows = adminRows.filter((row) => row.selfService);
const restrictedRows = adminRows.filter((row) => !row.selfService);

/** Spellings of `path` that a normalizing server might route as `path`, or as another route through a self-service one. */
function disguises(path: string): string[] {
  const keys = '/api/admin/clients/tgc_a/api-keys';
  const tail = path.replace(/^\/api\/admin\//, '');
  const up = (n: number, sep: string) => Array.from({ length: n }, () => sep).join('');
  return [
    path,
    `/prod${path}`,
    `${path}/`,
    `/prod${path}/`,
    `/${path}`,
    path.replaceAll('/', '//'),
    `/prod/${path}`,
    path.toUpperCase(),
    path.replace('/api/admin/', '/API/Admin/'),
    path.replace('/admin/', '/%61dmin/'),
    path.replace('/admin/', '/%2561dmin/'),
    path.replace(/\//g, '%2F'),
    path.replace('/api/admin/', '/api/admin/./'),
    path.replace('/api/admin/', '/api/x/../admin/'),
    `/..${path}`,
    `/x/..${path}`,
    `${keys}/../../../${tail}`,
    `${keys}/${up(3, '../')}${tail}`,
    `${keys}/%2e%2e/%2e%2e/%2e%2e/${tail}`,
    `${keys}/.%2e/.%2e/.%2e/${tail}`,
    `${keys}/..%2F..%2F..%2F${tail}`,
    `${keys}/%252e%252e/%252e%252e/%252e%252e/${tail}`,
    `${keys}%2F..%2F..%2F..%2F${tail}`,
    `/api/admin/clients/tgc_a%2F..%2F..%2F..%2F${tail}/api-keys`,
    `/api/admin/clients/..%2F..%2F${tail}/api-keys`,
    `${keys}/0123456789abcdef/../../../../${tail}`,
    `${keys}/..`,
    `${keys}/.`,
    '/api/admin/clients/tgc_a/api-keys/..%2F',
    '/api/admin/clients/./api-keys',
    '/api/admin/clients/../api-keys',
  ];
}

describe('the admin allowlist lets the self-service key routes through, and nothing else (behaviour EDGE-4, KEYM-2)', () => {
  test('the self-service rows are the three API-key routes, and the rule names each by method and path', () => {
    expect(selfServiceRows.map((row) => `${row.method} ${row.path}`).sort()).toEqual([
      'DELETE /api/admin/clients/{client_id}/api-keys/{key_id}',
      'GET /api/admin/clients/{client_id}/api-keys',
      'POST /api/admin/clients/{client_id}/api-keys',
    ]);
  });

  test.each(selfServiceRows.map((row) => [`${row.method} ${row.path}`, row] as const))(
    '%s: reachable from any address, with or without the stage and a trailing slash',
    (_name, row) => {
      for (const path of [concrete(row.path), `/prod${concrete(row.path)}`, `${concrete(row.path)}/`]) {
        expect(blocked({ method: row.method, path, inAllowlist: false })).toBe(false);
        expect(blocked({ method: row.method, path, inAllowlist: true })).toBe(false);
      }
    },
  );

  test.each(restrictedRows.map((row) => [`${row.method} ${row.path}`, row] as const))(
    '%s: refused outside the allowlist, allowed inside',
    (_name, row) => {
      const path = concrete(row.path);
      expect(blocked({ method: row.method, path, inAllowlist: false })).toBe(true);
      expect(blocked({ method: row.method, path: `/prod${path}`, inAllowlist: false })).toBe(true);
      expect(blocked({ method: row.method, path, inAllowlist: true })).toBe(false);
    },
  );

  test('no spelling of another admin route passes as a self-service one, under any method', () => {
    let reachingAdmin = 0;
    const escaped: string[] = [];
    for (const target of restrictedRows) {
      for (const path of disguises(concrete(target.path))) {
        for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const) {
          const reached = reachable(method, path).filter((row) => adminRows.includes(row));
          if (reached.length === 0) continue;
          reachingAdmin++;
          const onlySelfService = reached.every((row) => row.selfService);
          if (!onlySelfService && !blocked({ method, path, inAllowlist: false })) escaped.push(`${method} ${path}`);
        }
      }
    }
    expect(escaped).toEqual([]);
    // The spellings do reach admin routes under the permissive reading: the check above is not empty.
    expect(reachingAdmin).toBeGreaterThan(restrictedRows.length * 10);
  });

  test('a self-service path spelled so it needs normalizing is not let through (it is refused, not guessed)', () => {
    for (const path of [
      '/api/admin/clients/tgc_a/./api-keys',
      '/api/admin//clients/tgc_a/api-keys',
      '/api/admin/clients/tgc_a/api-keys/%2e%2e',
      '/api/admin/clients/%2e%2e/api-keys',
      '/api/admin/clients/tgc_a%2Fx/api-keys',
      '/API/admin/clients/tgc_a/api-keys',
    ])
      expect(blocked({ method: 'GET', path, inAllowlist: false })).toBe(true);
  });
});

describe('the functions of the self-service rows get the allowlist, to hold admin callers to it themselves (behaviour EDGE-4)', () => {
  test('ADMIN_ALLOWED_CIDRS reaches exactly the self-service rows, as deployed', () => {
    const functions = resources(full.template, 'AWS::Lambda::Function');
    for (const route of routes) {
      const variables = functions[logicalId(full.stack.server.functions[route.name]!)]!.Properties.Environment.Variables;
      expect([route.name, variables.ADMIN_ALLOWED_CIDRS]).toEqual([
        route.name,
        route.selfService ? '203.0.113.0/24,2001:db8::/32' : undefined,
      ]);
    }
  });

  test('without an allowlist no function gets one (nothing to hold admin callers to)', () => {
    const open = synthesize({});
    for (const fn of Object.values(resources(open.template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment?.Variables?.ADMIN_ALLOWED_CIDRS).toBeUndefined();
    }
  });
});
