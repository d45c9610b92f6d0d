/**
 * Behaviour EDGE-1 at the edge: every WAF rule against the route rows it derives from, the admin
 * allowlist, the never-blocked paths, the managed groups, logging redaction, and how a
 * rate outside WAF's bounds is fitted (lib/edge-rules.ts). The web ACL as a whole (its capacity,
 * the order of evaluation, every spelling of every path): test/infra/edge-evidence.test.ts.
 */
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { maxLogoBytes } from '../../lambdas/core/site/logo';
import { routes, type Route } from '../../lambdas/routes';
import { edgeRateRules, edgeRowRates, edgeRuleOf, fitRate, pathPattern, wafMinimumLimit, wafWindows } from '../../lib/edge-rules';
import {
  accessDeniedBody,
  binaryBodyRuleLabels,
  challengeCeilingFactor,
  lightlyLimitedPaths,
  publicDocumentPaths,
  tooManyRequestsBody,
} from '../../lib/web-acl';
import { resources, synthesize, type Synthesized } from './synthesize';
import { matches } from './waf-evaluator';

const allowlist = '203.0.113.0/24,198.51.100.7/32,2001:db8::/32';
let minimal: Synthesized;
let full: Synthesized;
beforeAll(() => {
  minimal = synthesize();
  full = synthesize({ ADMIN_ALLOWED_CIDRS: allowlist, WAF_BOT_CONTROL: 'true' });
});

const webAcl = (s: Synthesized) => Object.values(resources(s.template, 'AWS::WAFv2::WebACL'))[0]!.Properties;
const rule = (s: Synthesized, name: string) => webAcl(s).Rules.find((r: any) => r.Name === name);
const edgeRows = routes.filter((r): r is Route & { edge: NonNullable<Route['edge']> } => r.edge !== undefined);
const samplePath = (path: string) => path.replace(/\{[^}]+\}/g, 'abc_123');

describe('edge rates are representable in AWS WAF', () => {
  // A row that fails here is fitted at synth with a warning; state the fitted values in
  // the row instead (see lib/edge-rules.ts for the rule and its reason).
  test.each(edgeRows.map((r) => [r.name, r.edge] as const))('%s: limit ≥ 10, window one of 60/120/300/600 s', (_name, edge) => {
    const fitted = fitRate(edge.limit, edge.windowSeconds);
    expect({ exact: fitted.exact, suggestion: `${fitted.limit} per ${fitted.windowSeconds} s` }).toEqual({
      exact: true,
      suggestion: `${edge.limit} per ${edge.windowSeconds} s`,
    });
    expect(edge.rationale).toMatch(/^EDGE-\d/);
  });

  test('a rate WAF cannot express is fitted to the nearest stricter-or-equal setting', () => {
    // Behaviour EDGE-3: "about 5 / 5 minutes" is one a minute; 10 per 600 s is the same rate.
    expect(fitRate(5, 300)).toEqual({ limit: 10, windowSeconds: 600, exact: false, looser: false });
    // "about 10 / 5 minutes" is representable as it stands.
    expect(fitRate(10, 300)).toMatchObject({ limit: 10, windowSeconds: 300, exact: true });
    // 100 an hour: the 600 s window is nearest; floor(100 × 600 / 3600) = 16.
    expect(fitRate(100, 3600)).toEqual({ limit: 16, windowSeconds: 600, exact: false, looser: false });
    // 9 a minute: too few for 60 s; 18 per 120 s keeps the rate.
    expect(fitRate(9, 60)).toEqual({ limit: 18, windowSeconds: 120, exact: false, looser: false });
    // Below one a minute WAF cannot follow: the strictest setting, flagged looser.
    expect(fitRate(2, 3600)).toEqual({ limit: 10, windowSeconds: 600, exact: false, looser: true });
    for (const [limit, window] of [
      [5, 300],
      [100, 3600],
      [9, 60],
      [7, 45],
    ] as const) {
      const fitted = fitRate(limit, window);
      expect(fitted.limit).toBeGreaterThanOrEqual(wafMinimumLimit);
      expect(wafWindows).toContain(fitted.windowSeconds);
      expect(fitted.limit / fitted.windowSeconds).toBeLessThanOrEqual(limit / window + 1e-12);
    }
  });

  test('a fitted row is deployed fitted and announced at synth', () => {
    const row: Route = {
      ...edgeRows[0]!,
      name: 'EmailVerificationRequest',
      path: '/api/users/email-verification/request',
      edge: { limit: 5, windowSeconds: 300 as never, action: 'block', rationale: 'EDGE-1: about 5 / 5 minutes' },
    };
    const [fitted] = edgeRowRates([row]);
    expect(fitted).toMatchObject({ limit: 10, windowSeconds: 600, requested: { limit: 5, windowSeconds: 300, looser: false } });
    expect(edgeRateRules([row], 'prod')).toMatchObject([{ limit: 10, windowSeconds: 600, routes: ['EmailVerificationRequest'] }]);
  });
});

describe('path patterns', () => {
  test('match the path with or without the stage prefix, a trailing slash allowed, nothing else', () => {
    const token = new RegExp(pathPattern('/api/token', 'prod'));
    expect(['/api/token', '/prod/api/token', '/api/token/'].every((p) => token.test(p))).toBe(true);
    expect(['/api/token/api-key', '/api/tokens', '/x/api/token', '/prod/api/token/introspect'].some((p) => token.test(p))).toBe(false);
  });

  test('templated segments match one segment', () => {
    const keys = new RegExp(pathPattern('/api/admin/clients/{client_id}/api-keys', 'prod'));
    expect(keys.test('/prod/api/admin/clients/tgc_abc/api-keys')).toBe(true);
    expect(keys.test('/api/admin/clients/a/b/api-keys')).toBe(false);
  });
});

describe('rate rules in the web ACL (behaviour EDGE-1, EDGE-7)', () => {
  const deployed = edgeRateRules(routes, 'prod');
  const rateRules = () => webAcl(minimal).Rules.filter((r: any) => r.Statement.RateBasedStatement);

  test('the catch-all, then one rule per limit, window and action of the rows counted on their own, then one per group', () => {
    expect(rateRules().map((r: any) => r.Name)).toEqual(['Rate-AnyRequest', ...deployed.map((rule) => rule.name)]);
  });

  test('every row is counted by its rule at its own limit and window, per client IP, scoped to its method and path', () => {
    for (const row of edgeRows) {
      const expected = edgeRuleOf(deployed, row.name)!;
      const rule = webAcl(minimal).Rules.find((r: any) => r.Name === expected.name);
      const statement = rule.Statement.RateBasedStatement;
      expect({ row: row.name, limit: statement.Limit, window: statement.EvaluationWindowSec }).toEqual({
        row: row.name,
        limit: row.edge.limit,
        window: row.edge.windowSeconds,
      });
      // The connecting address, never a forwarded header; rules of several paths add the path.
      if (statement.AggregateKeyType === 'CUSTOM_KEYS') {
        expect(statement.CustomKeys).toEqual([{ IP: {} }, { UriPath: { TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }]);
        expect(expected.counting).toBe('per-path');
      } else {
        expect(statement.AggregateKeyType).toBe('IP');
      }
      expect(JSON.stringify(statement)).not.toContain('ForwardedIP');
      const path = `/prod${samplePath(row.path)}`;
      const method = { ByteMatchStatement: { FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: row.method } };
      const scope = JSON.stringify(statement.ScopeDownStatement);
      if (expected.pathPrefixes) expect(scope).not.toContain('"Method"');
      else expect(scope).toContain(JSON.stringify(method.ByteMatchStatement.FieldToMatch));
      const regexes = [...scope.matchAll(/"RegexString":"((?:[^"\\]|\\.)*)"/g)].map(([, r]) => new RegExp(JSON.parse(`"${r}"`)));
      expect({ row: row.name, matched: regexes.some((regex) => regex.test(path)) }).toEqual({ row: row.name, matched: true });
    }
  });

  test('no rule counts a routed path it does not name: a row’s rule matches no other row’s path and method', () => {
    const acl = webAcl(minimal);
    for (const rule of deployed.filter((r) => !r.pathPrefixes)) {
      const scopeDown = acl.Rules.find((r: any) => r.Name === rule.name).Statement.RateBasedStatement.ScopeDownStatement;
      for (const other of routes.filter((r) => !rule.routes.includes(r.name))) {
        expect({
          rule: rule.name,
          other: other.name,
          counted: matches(scopeDown, { method: other.method, path: `/prod${samplePath(other.path)}` }),
        }).toEqual({
          rule: rule.name,
          other: other.name,
          counted: false,
        });
      }
    }
  });

  test('block → 429 in the service’s JSON error shape with Retry-After; challenge → Challenge', () => {
    const bodies = webAcl(minimal).CustomResponseBodies;
    expect(bodies[tooManyRequestsBody].ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(bodies[tooManyRequestsBody].Content)).toEqual({ error: 'too_many_requests', error_description: expect.any(String) });
    for (const rule of rateRules()) {
      const window = rule.Statement.RateBasedStatement.EvaluationWindowSec;
      if (rule.Action.Challenge) {
        expect(rule.Action).toEqual({ Challenge: {} });
        continue;
      }
      expect(rule.Action).toEqual({
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            CustomResponseBodyKey: tooManyRequestsBody,
            ResponseHeaders: [{ Name: 'Retry-After', Value: String(window) }],
          },
        },
      });
    }
    for (const row of edgeRows) {
      const rule = rateRules().find((r: any) => r.Name === edgeRuleOf(deployed, row.name)!.name);
      expect(Object.keys(rule.Action)).toEqual([row.edge.action === 'block' ? 'Block' : 'Challenge']);
    }
  });

  test('a challenge row is also counted by a Block rule at three times its rate: a solved challenge only counts, so without it there is no limit', () => {
    const acl = webAcl(minimal);
    for (const row of edgeRows.filter((r) => r.edge.action === 'challenge')) {
      const ceiling = deployed.find((rule) => rule.ceilingFor?.includes(row.name))!;
      expect(ceiling).toMatchObject({
        action: 'block',
        limit: row.edge.limit * challengeCeilingFactor,
        windowSeconds: row.edge.windowSeconds,
      });
      const statement = acl.Rules.find((r: any) => r.Name === ceiling.name).Statement.RateBasedStatement;
      expect(matches(statement.ScopeDownStatement, { method: row.method, path: samplePath(row.path) })).toBe(true);
    }
  });

  test('JSON API rows are never given Challenge (it needs a browser)', () => {
    for (const row of edgeRows.filter((r) => r.path.startsWith('/api/token') || r.path === '/api/register' || r.path === '/api/userinfo')) {
      expect(row.edge.action).toBe('block');
    }
  });
});

describe('never blocked, allowlist, managed groups', () => {
  test('discovery documents and /api/health, then userinfo and validate, are allowed past the rule groups after every rate rule (behaviour EDGE-2)', () => {
    const priorities = (names: string[]) => names.map((n) => rule(minimal, n).Priority);
    const lastRate = Math.max(
      ...webAcl(minimal)
        .Rules.filter((r: any) => r.Statement.RateBasedStatement)
        .map((r: any) => r.Priority),
    );
    for (const [name, paths] of [
      ['AllowPublicDocuments', publicDocumentPaths],
      ['AllowTokenChecks', lightlyLimitedPaths],
    ] as const) {
      const allow = rule(minimal, name);
      expect(allow.Action).toEqual({ Allow: {} });
      expect(allow.Priority).toBeGreaterThan(lastRate);
      expect(allow.Priority).toBeLessThan(rule(minimal, 'AWSManagedRulesCommonRuleSet').Priority);
      const regex = new RegExp(allow.Statement.AndStatement.Statements[1].RegexMatchStatement.RegexString);
      for (const path of paths) expect(regex.test(`/prod${path}`) && regex.test(path)).toBe(true);
      expect(regex.test('/prod/api/token')).toBe(false);
    }
    // The IP reputation list and known bad inputs come first (behaviour EDGE-9).
    const [reputation, badInputs] = priorities(['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet']);
    expect([reputation, badInputs]).toEqual([0, 1]);
  });

  test('AWS managed groups: IP reputation, known bad inputs, common rule set; Bot Control only when enabled, on browser paths', () => {
    for (const name of ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesKnownBadInputsRuleSet', 'AWSManagedRulesCommonRuleSet']) {
      expect(rule(minimal, name)).toMatchObject({
        OverrideAction: { None: {} },
        Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: name } },
      });
    }
    expect(rule(minimal, 'AWSManagedRulesBotControlRuleSet')).toBeUndefined();
    const bot = rule(full, 'AWSManagedRulesBotControlRuleSet').Statement.ManagedRuleGroupStatement;
    const scoped = (path: string) => matches(bot.ScopeDownStatement, { method: 'POST', path });
    expect(scoped('/prod/api/auth/signin')).toBe(true);
    expect(scoped('/prod/dashboard/users')).toBe(true);
    expect(scoped('/prod/api/token')).toBe(false);
    expect(scoped('/prod/api/token/api-key')).toBe(false);
  });

  test('with an allowlist: IPv4 and IPv6 IP sets, and /dashboard* and /api/admin/* (but the self-service key routes) blocked from elsewhere with 403 JSON', () => {
    full.template.hasResourceProperties('AWS::WAFv2::IPSet', {
      IPAddressVersion: 'IPV4',
      Addresses: ['203.0.113.0/24', '198.51.100.7/32'],
      Scope: 'REGIONAL',
    });
    full.template.hasResourceProperties('AWS::WAFv2::IPSet', { IPAddressVersion: 'IPV6', Addresses: ['2001:db8::/32'], Scope: 'REGIONAL' });
    const admin = rule(full, 'AdminAllowlist');
    // After the IP reputation list and known bad inputs (behaviour EDGE-9), before every other rule.
    expect(admin.Priority).toBe(2);
    expect(admin.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 403, CustomResponseBodyKey: accessDeniedBody } } });
    // Admin paths, less the self-service key routes (test/infra/admin-allowlist.test.ts), from outside the IP sets.
    const [paths, selfService, notAllowed] = admin.Statement.AndStatement.Statements;
    const regex = new RegExp(paths.RegexMatchStatement.RegexString);
    for (const p of ['/prod/dashboard', '/dashboard/users', '/prod/api/admin/clients/x/api-keys', '/api/admin/users'])
      expect(regex.test(p)).toBe(true);
    for (const p of ['/prod/api/token', '/prod/api/administrator', '/prod/.well-known/openid-configuration'])
      expect(regex.test(p)).toBe(false);
    expect(selfService.NotStatement.Statement.OrStatement.Statements).toHaveLength(3);
    expect(notAllowed.NotStatement.Statement.OrStatement.Statements).toHaveLength(2);
    expect(JSON.parse(webAcl(full).CustomResponseBodies[accessDeniedBody].Content).error).toBe('access_denied');
  });

  test('without an allowlist: no IP set, no restriction, and synth warns loudly', () => {
    minimal.template.resourceCountIs('AWS::WAFv2::IPSet', 0);
    expect(rule(minimal, 'AdminAllowlist')).toBeUndefined();
    Annotations.fromStack(minimal.stack).hasWarning('*', Match.stringLikeRegexp('NO ADMIN IP ALLOWLIST'));
    expect(Annotations.fromStack(full.stack).findWarning('*', Match.stringLikeRegexp('NO ADMIN IP ALLOWLIST'))).toEqual([]);
  });

  test('WAF logs go to an aws-waf-logs-* log group with the Authorization, Cookie and Referer headers and the query string (reset tokens) redacted (behaviour RESET-8, EDGE-4)', () => {
    const [logging] = Object.values(resources(minimal.template, 'AWS::WAFv2::LoggingConfiguration'));
    expect(logging!.Properties.RedactedFields).toEqual([
      { SingleHeader: { Name: 'authorization' } },
      { SingleHeader: { Name: 'cookie' } },
      { SingleHeader: { Name: 'referer' } },
      { QueryString: {} },
    ]);
    const [logGroup] = Object.values(resources(minimal.template, 'AWS::Logs::LogGroup')).filter((g) =>
      JSON.stringify(g.Properties.LogGroupName ?? '').includes('aws-waf-logs-'),
    );
    expect(JSON.stringify(logGroup!.Properties.LogGroupName)).toMatch(/^\{"Fn::Join":\["",\["aws-waf-logs-Test-/);
    expect(JSON.stringify(logging!.Properties.LogDestinationConfigs)).not.toContain(':*');
  });

  test('sampled requests and rule-match details keep no token, cookie, password or query string either: data protection on the web ACL (behaviour RESET-8, EDGE-4)', () => {
    // The logging configuration's redaction does not reach sampled requests (kept ~3 hours, shown in the console).
    expect(webAcl(minimal).DataProtectionConfig.DataProtections).toEqual([
      { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['authorization'] }, Action: 'SUBSTITUTION' },
      { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['cookie'] }, Action: 'SUBSTITUTION' },
      { Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['referer'] }, Action: 'SUBSTITUTION' },
      { Field: { FieldType: 'SINGLE_COOKIE' }, Action: 'SUBSTITUTION' },
      { Field: { FieldType: 'QUERY_STRING' }, Action: 'SUBSTITUTION' },
      { Field: { FieldType: 'BODY' }, Action: 'SUBSTITUTION' },
    ]);
  });
});

describe('what CloudFormation and real OAuth clients need of the web ACL', () => {
  test('every WAF description fits CloudFormation’s pattern (a `*` fails the deploy, not the synth)', () => {
    const pattern = /^[\w+=:#@/\-,.][\w+=:#@/\-,.\s]+[\w+=:#@/\-,.]$/;
    for (const type of ['AWS::WAFv2::IPSet', 'AWS::WAFv2::WebACL']) {
      for (const resource of Object.values(resources(full.template, type))) {
        const description = resource.Properties.Description as string | undefined;
        if (description !== undefined) expect(description).toMatch(pattern);
      }
    }
  });

  test('the common rule set counts, not blocks, URLs with IP hosts: loopback redirect URIs (RFC 8252 7.3) must pass', () => {
    const common = webAcl(minimal).Rules.find((r: any) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet');
    const counted = common.Statement.ManagedRuleGroupStatement.RuleActionOverrides.map((o: any) => o.Name);
    expect(counted).toEqual(expect.arrayContaining(['GenericRFI_QUERYARGUMENTS', 'GenericRFI_BODY', 'NoUserAgent_HEADER']));
  });
});

describe('bodies over 8 KB: only the logo upload passes SizeRestrictions_BODY (behaviour EDGE-6, SITE-3)', () => {
  const common = () =>
    webAcl(minimal).Rules.find((r: any) => r.Statement.ManagedRuleGroupStatement?.Name === 'AWSManagedRulesCommonRuleSet');

  test('the common rule set only labels with SizeRestrictions_BODY and CrossSiteScripting_BODY', () => {
    const counted = common().Statement.ManagedRuleGroupStatement.RuleActionOverrides;
    for (const name of ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY']) {
      expect(counted).toContainEqual({ Name: name, ActionToUse: { Count: {} } });
    }
  });

  test('right after the common rule set, BlockLargeBodies blocks on those labels except on the largeBody rows (PUT /api/admin/site-logo, the dashboard upload)', () => {
    const block = rule(minimal, 'BlockLargeBodies');
    expect(block.Action).toEqual({ Block: {} });
    expect(block.Priority).toBe(common().Priority + 1);
    const [labels, exception] = block.Statement.AndStatement.Statements;
    expect(labels.OrStatement.Statements.map((s: any) => s.LabelMatchStatement)).toEqual(
      Object.values(binaryBodyRuleLabels).map((key) => ({ Scope: 'LABEL', Key: key })),
    );
    expect(labels.OrStatement.Statements[0].LabelMatchStatement.Key).toBe('awswaf:managed:aws:core-rule-set:SizeRestrictions_Body');
    const largeBodyRows = routes.filter((r) => r.largeBody);
    expect(largeBodyRows.map((r) => `${r.method} ${r.path}`)).toContain('PUT /api/admin/site-logo');
    expect(largeBodyRows.map((r) => `${r.method} ${r.path}`)).toContain('POST /dashboard/logo');
    const excepted = exception.NotStatement.Statement;
    const exceptions: any[] = excepted.AndStatement ? [excepted] : excepted.OrStatement.Statements;
    expect(exceptions).toHaveLength(largeBodyRows.length);
    const [method, path] = exceptions.find((e) => e.AndStatement.Statements[0].ByteMatchStatement.SearchString === 'PUT').AndStatement
      .Statements;
    expect(method.ByteMatchStatement).toMatchObject({ SearchString: 'PUT', FieldToMatch: { Method: {} } });
    const regex = new RegExp(path.RegexMatchStatement.RegexString);
    // The path as sent: a spelling that needs decoding is not excepted (behaviour EDGE-8).
    expect(path.RegexMatchStatement.TextTransformations).toEqual([{ Priority: 0, Type: 'NONE' }]);
    for (const p of ['/prod/api/admin/site-logo', '/api/admin/site-logo']) expect(regex.test(p)).toBe(true);
    for (const p of ['/prod/api/admin/site-logo/x', '/prod/api/admin/settings', '/prod/api/token', '/prod/api/admin/site-logox'])
      expect(regex.test(p)).toBe(false);
  });

  test('every largeBody row states its reason and a body bound the service enforces', () => {
    for (const row of routes.filter((r) => r.largeBody)) {
      expect(row.largeBody!.rationale).toMatch(/^EDGE-6: /);
      expect(row.largeBody!.maxBytes).toBeGreaterThan(8 * 1024);
    }
    expect(routes.find((r) => r.name === 'AdminPutSiteLogo')!.largeBody!.maxBytes).toBe(maxLogoBytes);
  });
});
