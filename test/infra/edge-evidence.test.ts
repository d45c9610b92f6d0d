/**
 * Evidence about the synthesized web ACL as a whole:
 * - its capacity (WCU), computed from every rule it holds, under the 1,500 the base price
 *   includes, with every option on (admin allowlist, Bot Control);
 * - every regex within AWS WAF's quota of 200 characters;
 * - no spelling of a path reaches a function without meeting that function's rate rule
 *   (behaviour EDGE-1, EDGE-7, EDGE-8): each spelling (double slashes, case, percent-encoding,
 *   dot segments, trailing slash, the stage prefix) is read as the local server and router read
 *   it (lambdas/local/server.ts, lambdas/http/router.ts; API Gateway matches paths the same way,
 *   case-sensitively) and, to be safe, as a server that decodes and normalizes before routing
 *   would; the web ACL's rules are walked for it as AWS WAF walks them (./waf-evaluator.ts).
 */
import { createRouter } from '../../lambdas/http/router';
import { routes, type Route } from '../../lambdas/routes';
import { edgeRateRules, edgeRuleOf, wafMaxRateBasedRules } from '../../lib/edge-rules';
import { includedCapacity, statementCapacity, webAclCapacity } from '../../lib/waf-capacity';
import { resources, synthesize, type Synthesized } from './synthesize';
import { evaluate, transform } from './waf-evaluator';

let full: Synthesized;
let minimal: Synthesized;
beforeAll(() => {
  full = synthesize({ ADMIN_ALLOWED_CIDRS: '203.0.113.0/24,2001:db8::/32', WAF_BOT_CONTROL: 'true' });
  minimal = synthesize();
});

const webAcl = (s: Synthesized) => Object.values(resources(s.template, 'AWS::WAFv2::WebACL'))[0]!.Properties;

describe('web ACL capacity (behaviour EDGE-10)', () => {
  test('statements are priced as the AWS WAF developer guide prices them', () => {
    const path = (transformations: string[]) => ({
      RegexMatchStatement: {
        FieldToMatch: { UriPath: {} },
        RegexString: '^/x$',
        TextTransformations: transformations.map((Type, Priority) => ({ Priority, Type })),
      },
    });
    const method = {
      ByteMatchStatement: {
        FieldToMatch: { Method: {} },
        PositionalConstraint: 'EXACTLY',
        SearchString: 'GET',
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      },
    };
    expect(statementCapacity(path([]))).toBe(3);
    expect(statementCapacity(path(['URL_DECODE']))).toBe(13);
    expect(statementCapacity(path(['URL_DECODE', 'NORMALIZE_PATH', 'LOWERCASE']))).toBe(33);
    expect(statementCapacity(method)).toBe(2);
    expect(statementCapacity({ AndStatement: { Statements: [method, path(['URL_DECODE'])] } })).toBe(15);
    expect(statementCapacity({ RateBasedStatement: { Limit: 10, AggregateKeyType: 'IP' } })).toBe(2);
    expect(statementCapacity({ RateBasedStatement: { ScopeDownStatement: { NotStatement: { Statement: method } } } })).toBe(4);
    expect(statementCapacity({ ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' } })).toBe(700);
    expect(statementCapacity({ IPSetReferenceStatement: { Arn: 'x' } })).toBe(1);
    expect(() => statementCapacity({ SqliMatchStatement: {} })).toThrow(/no capacity known/);
  });

  test(`everything the web ACL holds, with the admin allowlist and Bot Control on, stays within the ${includedCapacity} WCU the base price includes`, () => {
    const capacity = webAclCapacity(webAcl(full).Rules);
    const breakdown = capacity.rules.map((rule) => `${rule.name} ${rule.capacity}`).join(', ');
    expect({ total: capacity.total, within: capacity.total <= includedCapacity, breakdown }).toEqual({
      total: capacity.total,
      within: true,
      breakdown,
    });
    // Without the options it is cheaper still; the synthesized construct reports the same sum.
    expect(webAclCapacity(webAcl(minimal).Rules).total).toBeLessThan(capacity.total);
    expect(full.stack.server.webAcl.capacity).toBe(capacity.total);
  });

  test('every regex fits AWS WAF’s quota of 200 characters', () => {
    const regexes: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'RegexString') regexes.push(inner as string);
          else walk(inner);
        }
      }
    };
    walk(webAcl(full).Rules);
    expect(regexes.length).toBeGreaterThan(20);
    expect(regexes.filter((regex) => regex.length > 200)).toEqual([]);
  });
});

describe('the order of evaluation (behaviour EDGE-2, EDGE-7, EDGE-8)', () => {
  const priority = (s: Synthesized, name: string) => webAcl(s).Rules.find((r: any) => r.Name === name)?.Priority as number;
  const allowRules = (s: Synthesized) => webAcl(s).Rules.filter((r: any) => r.Action?.Allow);

  test.each([
    ['minimal', () => minimal],
    ['full', () => full],
  ])(
    '%s: the IP reputation list and the known bad inputs come before any Allow rule, and so do the catch-all and the path rule',
    (_name, of) => {
      const s = of();
      const firstAllow = Math.min(...allowRules(s).map((r: any) => r.Priority));
      expect(allowRules(s).length).toBeGreaterThan(0);
      for (const name of [
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesKnownBadInputsRuleSet',
        'BlockNonCanonicalPaths',
        'Rate-AnyRequest',
      ]) {
        expect({ name, before: priority(s, name) < firstAllow }).toEqual({ name, before: true });
      }
      // Every rate rule counts before any Allow rule can end the walk.
      for (const rule of webAcl(s).Rules.filter((r: any) => r.Statement.RateBasedStatement)) expect(rule.Priority).toBeLessThan(firstAllow);
    },
  );

  test('WAF_RATE_LIMIT_PER_IP sets the catch-all; one below the busiest route rule is refused at synth (behaviour EDGE-7)', () => {
    const custom = synthesize({ WAF_RATE_LIMIT_PER_IP: '6000/300' });
    const rule = webAcl(custom).Rules.find((r: any) => r.Name === 'Rate-AnyRequest');
    expect(rule.Statement.RateBasedStatement).toMatchObject({ Limit: 6000, EvaluationWindowSec: 300, AggregateKeyType: 'IP' });
    // 1,000 a minute is below the light rule's 1,200: a caller within its row's limit would be refused.
    expect(() => synthesize({ WAF_RATE_LIMIT_PER_IP: '1000' })).toThrow(
      /catch-all rate rule .* at least the busiest edge rule's rate \(1200 a minute\)/,
    );
    expect(() => synthesize({ WAF_RATE_LIMIT_PER_IP: '2000/90' })).toThrow(/WAF_RATE_LIMIT_PER_IP must be/);
  });

  test('a path spelled otherwise than published is refused with 400 invalid_request and a readable description (behaviour EDGE-8)', () => {
    const acl = webAcl(minimal);
    const rule = acl.Rules.find((r: any) => r.Name === 'BlockNonCanonicalPaths');
    const key = rule.Action.Block.CustomResponse.CustomResponseBodyKey;
    expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(400);
    const body = acl.CustomResponseBodies[key];
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body.Content)).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/not spelled as this server publishes it/),
    });
    const verdict = (method: string, path: string) => evaluate(acl, { method, path }).blockedBy;
    for (const path of [
      '/api/%74oken',
      '/API/token',
      '/api/Token',
      '/api/token/',
      '/api//token',
      '/api/./token',
      '/api/x/../token',
      '/PROD/api/token',
      '/api/token%2F',
      '/api/admin/clients/x/..%2F..%2Fusers',
      '/api/admin//users',
      '/api/admin/%2525',
    ]) {
      expect({ path, blockedBy: verdict('POST', path) }).toEqual({ path, blockedBy: 'BlockNonCanonicalPaths' });
    }
    for (const path of [
      '/api/token',
      '/prod/api/token',
      '/api/admin/clients/https%3A%2F%2Fapp.example%2Fclient.json',
      '/dashboard/clients/tgc_Ab3-x_9',
    ]) {
      expect({ path, blockedBy: verdict('POST', path) }).toEqual({ path, blockedBy: undefined });
    }
  });

  test('the catch-all counts every request per address, whatever its path and method', () => {
    const rule = webAcl(minimal).Rules.find((r: any) => r.Name === 'Rate-AnyRequest');
    expect(rule.Statement.RateBasedStatement).toEqual({
      Limit: expect.any(Number),
      EvaluationWindowSec: expect.any(Number),
      AggregateKeyType: 'IP',
    });
    expect(rule.Action.Block.CustomResponse.ResponseCode).toBe(429);
    expect(evaluate(webAcl(minimal), { method: 'GET', path: '/.well-known/openid-configuration' }).countedBy).toContain('Rate-AnyRequest');
    expect(evaluate(webAcl(minimal), { method: 'DELETE', path: '/no/such/thing' }).countedBy).toContain('Rate-AnyRequest');
  });
});

const edgeRules = edgeRateRules(routes, 'prod');
/** The rate rule that must count a request routed to `row` against the row's own limit. */
const ruleOf = (row: Route) => edgeRuleOf(edgeRules, row.name)?.name ?? `(none for ${row.name})`;
/**
 * The counters a row may be counted on: a rule that keys on the path keeps one per spelling the
 * row is published under, the path with or without the stage (one per host: the custom domain, and
 * execute-api), and no other.
 */
const ownKeys = (row: Route) => {
  const path = concrete(row.path);
  return new Set(['', path, `/prod${path}`]);
};

const concrete = (path: string) =>
  path
    .replace('{client_id}', 'tgc_Ab3-x_9')
    .replace('{key_id}', '0123456789abcdef')
    .replace('{user_id}', 'usr_1')
    .replace(/\{[^}]+\+\}/, 'clients/new')
    .replace(/\{[^}]+\}/g, 'x1');

/** Spellings of a path (behaviour EDGE-8): doubled slashes, case, percent-encoding, dot segments, trailing slash, the stage. */
function spellings(path: string): string[] {
  const encodeOne = (p: string, upper: boolean) =>
    p.replace(/[a-z](?=[^/]*$)/, (c) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`);
  const base = [
    path,
    `${path}/`,
    `${path}//`,
    `/${path}`,
    path.replace(/\/(?=[^/]+$)/, '//'),
    path.replace(/^\/([^/]+)/, '/$1/'),
    path.toUpperCase(),
    path.replace(/\/([a-z])/, (_, c: string) => `/${c.toUpperCase()}`),
    encodeOne(path, false),
    encodeOne(path, true),
    path.replace(/\/(?=[^/]+$)/, '%2F'),
    path.replace(/\/(?=[^/]+$)/, '%2f'),
    path.replace(/\/(?=[^/]+$)/, '/%2F'),
    path.replace(/\/(?=[^/]+$)/, '/:%2F%2F'),
    path.replace(/[a-z](?=[^/]*$)/, (c) => `%25${c.charCodeAt(0).toString(16)}`),
    path.replace(/\/(?=[^/]+$)/, '/./'),
    path.replace(/\/(?=[^/]+$)/, '/x/../'),
    path.replace(/\/(?=[^/]+$)/, '/%2e/'),
    path.replace(/\/(?=[^/]+$)/, '/x/%2e%2e/'),
    path.replace(/\/(?=[^/]+$)/, '/x/.%2E/'),
    path.replace(/\/(?=[^/]+$)/, '/x%2F..%2F'),
    path.replace(/\/(?=[^/]+$)/, '/x/%252e%252e/'),
    `/x/..${path}`,
    `${path};x`,
    `${path}%20`,
    `${path}\\`,
  ];
  return [...base, ...base.map((p) => `/prod${p}`), ...base.map((p) => `/prod/${p}`), `/PROD${path}`];
}

const route = createRouter();
const stage = 'prod';

/** What the local server routes a raw path to (lambdas/local/server.ts: WHATWG URL, then the router). */
const whatwg = (raw: string) => {
  try {
    return new URL(raw, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
};
const decodeFully = (path: string) => {
  let decoded = path;
  for (let previous = ''; previous !== decoded; ) {
    previous = decoded;
    decoded = transform(decoded, 'URL_DECODE');
  }
  return decoded;
};
const normalize = (path: string) => {
  const out: string[] = [];
  for (const segment of path.replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}${path.endsWith('/') && out.length > 0 ? '/' : ''}`;
};

/**
 * The rows a raw path could reach: as the local server routes it, and as a server that decodes
 * every percent-encoding and normalizes slashes and dot segments before routing would; each
 * with the stage stripped (the execute-api address) and without (a custom domain at the root).
 */
function reached(method: string, raw: string): Route[] {
  const pathname = whatwg(raw);
  if (pathname === undefined) return [];
  const readings = new Set([pathname, decodeFully(pathname), normalize(decodeFully(pathname))]);
  for (const reading of [...readings]) {
    if (reading === `/${stage}` || reading.startsWith(`/${stage}/`)) readings.add(reading.slice(stage.length + 1) || '/');
  }
  const found = new Map<string, Route>();
  for (const reading of readings) {
    const lookup = route(method, reading);
    if (lookup.kind === 'match') found.set(lookup.route.name, lookup.route);
  }
  return [...found.values()];
}

describe('no spelling of a path reaches a function without its rule (behaviour EDGE-1, EDGE-7, EDGE-8)', () => {
  test('every route row has an edge rule, its own or its group’s, and the web ACL has that rule', () => {
    const names = new Set(webAcl(minimal).Rules.map((r: any) => r.Name));
    for (const row of routes) {
      expect({ row: row.name, edge: row.edge !== undefined }).toEqual({ row: row.name, edge: true });
      expect({ row: row.name, rule: names.has(ruleOf(row)) }).toEqual({ row: row.name, rule: true });
    }
  });

  test.each([
    ['without an allowlist', () => minimal],
    ['with the allowlist, from inside it', () => full],
  ])('%s: each spelling is blocked outright, or counted by the rule of every function it can reach', (_name, of) => {
    const acl = webAcl(of());
    const escaped: string[] = [];
    let reaching = 0;
    for (const row of routes) {
      for (const raw of spellings(concrete(row.path))) {
        const targets = reached(row.method, raw);
        if (targets.length === 0) continue;
        reaching++;
        const verdict = evaluate(acl, { method: row.method, path: raw, inAllowlist: true });
        if (verdict.blockedBy) continue;
        for (const target of targets) {
          const counter = verdict.counters.find((c) => c.rule === ruleOf(target));
          if (!counter || !ownKeys(target).has(counter.key)) {
            escaped.push(
              `${row.method} ${raw} -> ${target.name} (counted by ${verdict.counters.map((c) => `${c.rule} ${c.key}`).join(', ')})`,
            );
          }
        }
      }
    }
    expect(escaped).toEqual([]);
    // The spellings do reach functions: the check above is not empty.
    expect(reaching).toBeGreaterThan(routes.length * 4);
  });

  test('the spellings the server publishes pass, with or without the stage, each counted on its own counter', () => {
    const acl = webAcl(minimal);
    for (const row of routes) {
      for (const raw of [concrete(row.path), `/prod${concrete(row.path)}`]) {
        const verdict = evaluate(acl, { method: row.method, path: raw });
        expect({ raw, blockedBy: verdict.blockedBy }).toEqual({ raw, blockedBy: undefined });
        expect(verdict.countedBy).toContain(ruleOf(row));
        expect(verdict.countedBy).toContain('Rate-AnyRequest');
      }
    }
  });

  test('rows counted per path keep their own counters: two rows of one rule never share one', () => {
    const acl = webAcl(minimal);
    const token = evaluate(acl, { method: 'POST', path: '/api/token' }).counters.find(
      (c) => c.rule === ruleOf(routes.find((r) => r.name === 'Token')!),
    )!;
    const revoke = evaluate(acl, { method: 'POST', path: '/api/token/revoke' }).counters.find((c) => c.rule === token.rule)!;
    expect(token.key).not.toBe(revoke.key);
  });

  test(`AWS WAF's quota of ${wafMaxRateBasedRules} rate-based rules per web ACL holds, with every option on`, () => {
    for (const s of [minimal, full]) {
      expect(webAcl(s).Rules.filter((r: any) => r.Statement.RateBasedStatement).length).toBeLessThanOrEqual(wafMaxRateBasedRules);
    }
  });

  test('admin and dashboard paths may carry percent-encoded ids (a client id that is a URL), and are counted decoded', () => {
    const acl = webAcl(minimal);
    const cimd = '/api/admin/clients/https%3A%2F%2Fapp.example%2Fclient.json';
    expect(route('GET', cimd)).toMatchObject({ kind: 'match', route: { name: 'AdminGetClient' } });
    const verdict = evaluate(acl, { method: 'GET', path: cimd });
    expect(verdict.blockedBy).toBeUndefined();
    expect(verdict.countedBy).toContain(ruleOf(routes.find((r) => r.name === 'AdminGetClient')!));
  });
});
