/**
 * The regional WAF web ACL on the API stage: the edge protections of behaviour EDGE-1..EDGE-4.
 *
 * Evaluation order (lowest priority number first; the first terminating match wins):
 *   0  AllowPublicDocuments  GET discovery documents and /api/health: allowed before any
 *                            other rule, so neither a rate rule nor a managed group can block them.
 *   1  AdminAllowlist        /dashboard* and /api/admin/* from outside the allowlist: 403
 *                            (only when an allowlist is configured; without one the deployer
 *                            declared the admin plane open, behaviour EXPOSURE-3),
 *                            except the self-service rows (API keys, which end users call),
 *                            each by its method and strict path (behaviour EDGE-4).
 *  10+ Rate-<route>          one rate-based rule per route row with `edge`, per client IP,
 *                            scoped to the row's method and path (lib/edge-rules.ts).
 *  next AllowTokenChecks     GET /api/userinfo and /api/token/validate: after their light rate
 *                            rules, allowed past the managed groups (behaviour EDGE-2: never blocked).
 *  then AWS managed groups   IP reputation, known bad inputs, common rule set, and Bot Control
 *                            when enabled (scoped to browser paths: it blocks HTTP libraries,
 *                            which is what OAuth clients and SDKs are).
 *                            The common rule set's SizeRestrictions_BODY only labels; right
 *                            after it, BlockLargeBodies blocks on that label except on the
 *                            rows with `largeBody` (the logo upload; behaviour EDGE-6).
 * Default action: allow.
 *
 * Blocks answer in the service's error shape (custom response bodies below): 429
 * `too_many_requests` with Retry-After for rate rules, 403 `access_denied` for the allowlist.
 * Managed-group blocks use API Gateway's WAF_FILTERED response (lib/gateway-responses.ts).
 */
import { Annotations, ArnFormat, Fn, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { endpointPaths, routes as routeTable, type HttpMethod, type Route } from '../lambdas/routes';
import { anywherePattern, edgeRateRules, pathPattern, prefixPattern, strictPathPattern, type EdgeRateRule } from './edge-rules';

export interface ApiWebAclProps {
  /** ARN of the API Gateway stage to protect. */
  readonly stageArn: string;
  /** Stage name: the first path segment WAF sees on execute-api requests. */
  readonly stageName: string;
  /**
   * Rows whose `edge` settings become rate rules.
   * @default the route table of lambdas/routes.ts
   */
  readonly routes?: readonly Route[];
  /**
   * CIDRs (IPv4 and/or IPv6) allowed to reach the admin paths. Empty: the admin paths are
   * not restricted at the edge (they still require admin tokens) and synth warns.
   * @default - none
   */
  readonly adminAllowlist?: readonly string[];
  /**
   * Path prefixes restricted to the allowlist. The rows marked `selfService` (API-key
   * management, which end users call with their own token) are let through by their method and
   * exact path, wherever the caller is (behaviour EDGE-4).
   * @default ['/dashboard', '/api/admin/']
   */
  readonly adminPathPrefixes?: readonly string[];
  /**
   * AWS WAF Bot Control (common inspection level), on browser paths only. Costs extra
   * (a monthly fee plus a per-request fee).
   * @default false
   */
  readonly botControl?: boolean;
  /** Retention of the WAF log group. */
  readonly logRetention: logs.RetentionDays;
}

/** GET paths that no rule may block: evaluated first. */
export const publicDocumentPaths: readonly string[] = [
  endpointPaths.authorizationServerMetadata,
  endpointPaths.openidConfiguration,
  endpointPaths.health,
];
/** Bearer-checked GET paths: only their own light rate rules apply (behaviour EDGE-2). */
export const lightlyLimitedPaths: readonly string[] = [endpointPaths.userinfo, endpointPaths.validate];
/**
 * Common rule set rules that a binary body trips, and the labels they put on a request (AWS WAF
 * developer guide, baseline rule groups): SizeRestrictions_BODY flags every body over 8 KB, and
 * CrossSiteScripting_BODY can match the bytes of an image. Outside the `largeBody` rows they block as before.
 */
export const binaryBodyRuleLabels = {
  SizeRestrictions_BODY: 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body',
  CrossSiteScripting_BODY: 'awswaf:managed:aws:core-rule-set:CrossSiteScripting_Body',
} as const;
/**
 * Headers never written to the WAF log: they carry tokens, API keys, client secrets and sessions,
 * and Referer the URL of the page a request came from, which for an older browser, a page of
 * another site or a link pasted elsewhere can be a reset link with its token (behaviour RESET-8).
 */
export const redactedHeaders = ['authorization', 'cookie', 'referer'] as const;

export const tooManyRequestsBody = 'too-many-requests';
/** A browser that solved a challenge is still blocked past this multiple of its row's rate. */
export const challengeCeilingFactor = 3;
export const accessDeniedBody = 'access-denied';

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

export class ApiWebAcl extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  /** The generated web ACL name (the `WebACL` dimension of its metrics). */
  readonly webAclName: string;
  /** The rate rules as deployed, in evaluation order. */
  readonly rateRules: readonly EdgeRateRule[];
  /** `aws-waf-logs-…`: WAF requires the prefix. */
  readonly logGroup: logs.LogGroup;
  readonly adminIpSets: readonly wafv2.CfnIPSet[];

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const metricPrefix = stack.stackName.replace(/[^A-Za-z0-9_-]/g, '');
    const stage = props.stageName;
    const rows = props.routes ?? routeTable;
    this.rateRules = edgeRateRules(rows, stage);
    const allowlist = props.adminAllowlist ?? [];
    const adminPrefixes = props.adminPathPrefixes ?? ['/dashboard', '/api/admin/'];

    for (const rule of this.rateRules.filter((r) => r.requested)) {
      Annotations.of(this).addWarningV2(
        `authorization-server:waf-rate-fitted-${rule.route}`,
        `Route ${rule.route} asks for ${rule.requested!.limit} per ${rule.requested!.windowSeconds} s, which AWS WAF cannot express; ` +
          `deployed as ${rule.limit} per ${rule.windowSeconds} s${rule.requested!.looser ? ' (LOOSER than asked: the service must enforce the rest)' : ''}. ` +
          'State the WAF values in the row (lambdas/routes.ts) with the reason.',
      );
    }

    const rules: wafv2.CfnWebACL.RuleProperty[] = [];
    rules.push({
      name: 'AllowPublicDocuments',
      priority: 0,
      action: { allow: {} },
      statement: and(methodIs('GET'), pathMatches(alternatives(publicDocumentPaths.map((p) => pathPattern(p, stage))))),
      visibilityConfig: visibility(`${metricPrefix}-public-documents`),
    });

    const ipSets: wafv2.CfnIPSet[] = [];
    if (allowlist.length > 0) {
      for (const version of ['IPV4', 'IPV6'] as const) {
        const addresses = allowlist.filter((cidr) => cidr.includes(':') === (version === 'IPV6'));
        if (addresses.length === 0) continue;
        ipSets.push(
          new wafv2.CfnIPSet(this, `AdminAllowlist${version === 'IPV4' ? 'V4' : 'V6'}`, {
            scope: 'REGIONAL',
            ipAddressVersion: version,
            addresses,
            // CloudFormation allows no `*` in a WAF description (the deploy would fail).
            description: 'Networks allowed to reach the dashboard and the admin API',
          }),
        );
      }
      const inAllowlist = ipSets.map((set): wafv2.CfnWebACL.StatementProperty => ({ ipSetReferenceStatement: { arn: set.attrArn } }));
      // Behaviour EDGE-4. What counts as an admin path is read generously (decoded three times
      // over, slashes and dot segments normalized, lower-cased, at any segment), so no spelling
      // of an admin path slips past; what is let through is read strictly (decoded once, exact
      // method and segment shapes), so no spelling of another admin path passes for a
      // self-service one.
      const selfService = rows.filter((row) => row.selfService);
      const adminPath = pathMatches(alternatives(adminPrefixes.map((p) => anywherePattern(p.toLowerCase()))), [
        'URL_DECODE',
        'URL_DECODE',
        'URL_DECODE',
        'NORMALIZE_PATH',
        'LOWERCASE',
      ]);
      rules.push({
        name: 'AdminAllowlist',
        priority: 1,
        action: { block: { customResponse: { responseCode: 403, customResponseBodyKey: accessDeniedBody } } },
        statement: and(
          adminPath,
          ...(selfService.length > 0
            ? [
                {
                  notStatement: {
                    statement: or(selfService.map((row) => and(methodIs(row.method), pathMatches(strictPathPattern(row.path, stage))))),
                  },
                },
              ]
            : []),
          { notStatement: { statement: or(inAllowlist) } },
        ),
        visibilityConfig: visibility(`${metricPrefix}-admin-allowlist`),
      });
    } else {
      Annotations.of(this).addWarningV2(
        'authorization-server:no-admin-allowlist',
        '!!! NO ADMIN IP ALLOWLIST: /dashboard* and /api/admin/* are reachable from any address (admin tokens still required). ' +
          'Behaviour EDGE-4 recommends restricting them: set ADMIN_ALLOWED_CIDRS (comma-separated CIDRs) or the adminAllowlist prop. !!!',
      );
    }
    this.adminIpSets = ipSets;

    let priority = 10;
    const blockWith429 = (windowSeconds: number): wafv2.CfnWebACL.RuleActionProperty => ({
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: tooManyRequestsBody,
          responseHeaders: [{ name: 'Retry-After', value: String(windowSeconds) }],
        },
      },
    });
    const rateRule = (
      name: string,
      rule: EdgeRateRule,
      limit: number,
      action: wafv2.CfnWebACL.RuleActionProperty,
    ): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority: priority++,
      action,
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: rule.windowSeconds,
          // The connecting address, never a forwarded header (attacker-controlled).
          aggregateKeyType: 'IP',
          scopeDownStatement: and(methodIs(rule.method), pathMatches(rule.pathRegex)),
        },
      },
      visibilityConfig: visibility(`${metricPrefix}-${name}`),
    });
    for (const rule of this.rateRules) {
      if (rule.action === 'block') {
        rules.push(rateRule(rule.name, rule, rule.limit, blockWith429(rule.windowSeconds)));
        continue;
      }
      // Challenge works only for browsers (a JavaScript interstitial); rows use it only for
      // browser form posts. A request carrying a solved challenge's token is only counted by
      // it, so a Block rule at challengeCeilingFactor times the rate keeps a hard ceiling.
      rules.push(rateRule(rule.name, rule, rule.limit, { challenge: {} }));
      rules.push(rateRule(`${rule.name}-Ceiling`, rule, rule.limit * challengeCeilingFactor, blockWith429(rule.windowSeconds)));
    }

    rules.push({
      name: 'AllowTokenChecks',
      priority: priority++,
      action: { allow: {} },
      statement: and(methodIs('GET'), pathMatches(alternatives(lightlyLimitedPaths.map((p) => pathPattern(p, stage))))),
      visibilityConfig: visibility(`${metricPrefix}-token-checks`),
    });

    const managed = (
      name: string,
      extra: Partial<wafv2.CfnWebACL.ManagedRuleGroupStatementProperty> = {},
    ): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority: priority++,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...extra } },
      visibilityConfig: visibility(`${metricPrefix}-${name}`),
    });
    rules.push(managed('AWSManagedRulesAmazonIpReputationList'));
    rules.push(managed('AWSManagedRulesKnownBadInputsRuleSet'));
    rules.push(
      managed('AWSManagedRulesCommonRuleSet', {
        // OAuth clients are programs (CLIs, MCP clients, SDKs); not all send a
        // User-Agent, so its absence is counted, not blocked. The remote-file-inclusion
        // rules flag URLs with IP hosts in queries and bodies, and loopback redirect URIs
        // (http://127.0.0.1:port/callback, RFC 8252 7.3, what MCP clients use) are exactly
        // that: counted too, or authorization, token and registration requests would be blocked.
        // The binary-body rules only label here: the next rule blocks on their labels everywhere
        // except the rows that take large binary bodies (behaviour EDGE-6).
        ruleActionOverrides: [
          'NoUserAgent_HEADER',
          'GenericRFI_QUERYARGUMENTS',
          'GenericRFI_BODY',
          ...Object.keys(binaryBodyRuleLabels),
        ].map((name) => ({ name, actionToUse: { count: {} } })),
      }),
    );
    const largeBodyRows = rows.filter((r) => r.largeBody);
    const oversized = or(
      Object.values(binaryBodyRuleLabels).map(
        (key): wafv2.CfnWebACL.StatementProperty => ({ labelMatchStatement: { scope: 'LABEL', key } }),
      ),
    );
    rules.push({
      name: 'BlockLargeBodies',
      priority: priority++,
      action: { block: {} },
      statement:
        largeBodyRows.length === 0
          ? oversized
          : and(oversized, {
              notStatement: {
                statement: or(largeBodyRows.map((r) => and(methodIs(r.method), pathMatches(pathPattern(r.path, stage))))),
              },
            }),
      visibilityConfig: visibility(`${metricPrefix}-large-bodies`),
    });
    if (props.botControl) {
      const browserPaths = [...new Set(rows.filter((r) => r.edge?.action === 'challenge').map((r) => r.path))];
      rules.push(
        managed('AWSManagedRulesBotControlRuleSet', {
          managedRuleGroupConfigs: [{ awsManagedRulesBotControlRuleSet: { inspectionLevel: 'COMMON' } }],
          scopeDownStatement: pathMatches(
            alternatives([
              ...browserPaths.map((p) => pathPattern(p, stage)),
              ...adminPrefixes.filter((p) => p === '/dashboard').map((p) => prefixPattern(p, stage)),
            ]),
          ),
        }),
      );
    }

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`${metricPrefix}-api`),
      customResponseBodies: {
        [tooManyRequestsBody]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: 'too_many_requests', error_description: 'Too many requests from this address; retry later.' }),
        },
        [accessDeniedBody]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({ error: 'access_denied', error_description: 'This endpoint is not reachable from your network.' }),
        },
      },
      rules,
    });
    // Ref of a web ACL is `name|id|scope`.
    this.webAclName = Fn.select(0, Fn.split('|', this.webAcl.ref));
    new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stageArn,
      webAclArn: this.webAcl.attrArn,
    });

    // The stack id's UUID makes the name unique per stack instance, so a retained log
    // group of a destroyed stack never blocks a redeploy under the same stack name; the
    // construct's address keeps two servers in one stack apart.
    const stackUuid = Fn.select(2, Fn.split('/', stack.stackId));
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: `aws-waf-logs-${metricPrefix}-${this.node.addr.slice(0, 8)}-${stackUuid}`,
      retention: props.logRetention,
    });
    new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // WAF wants the log group ARN without the `:*` suffix logGroupArn carries.
      logDestinationConfigs: [
        stack.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: this.logGroup.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // The query string too: a password-reset link carries its token there (GET /reset-password?token=…).
      // WAF redacts a field for every request, not per path, so all query strings are redacted.
      redactedFields: [...redactedHeaders.map((name) => ({ singleHeader: { Name: name } })), { queryString: {} }],
    });
  }
}

function and(...statements: wafv2.CfnWebACL.StatementProperty[]): wafv2.CfnWebACL.StatementProperty {
  return { andStatement: { statements } };
}

function or(statements: wafv2.CfnWebACL.StatementProperty[]): wafv2.CfnWebACL.StatementProperty {
  return statements.length === 1 ? statements[0]! : { orStatement: { statements } };
}

function methodIs(method: HttpMethod): wafv2.CfnWebACL.StatementProperty {
  return {
    byteMatchStatement: {
      fieldToMatch: { method: {} },
      positionalConstraint: 'EXACTLY',
      searchString: method,
      textTransformations: [{ priority: 0, type: 'NONE' }],
    },
  };
}

/** URL-decoded first, so `/api/%74oken` is counted as `/api/token`; then any further `transformations`, in order. */
function pathMatches(regexString: string, transformations: readonly string[] = ['URL_DECODE']): wafv2.CfnWebACL.StatementProperty {
  return {
    regexMatchStatement: {
      fieldToMatch: { uriPath: {} },
      regexString,
      textTransformations: transformations.map((type, priority) => ({ priority, type })),
    },
  };
}

/** One regex for several anchored patterns: `^(/prod)?/a/?$|^(/prod)?/b/?$`. */
const alternatives = (patterns: readonly string[]): string => patterns.join('|');
