/**
 * The regional WAF web ACL on the API stage: the edge protections of behaviour EDGE-1..EDGE-9.
 *
 * Evaluation order (lowest priority number first; the first terminating match wins, and a
 * rate-based rule counts only the requests that reach it):
 *   0  AWS IP reputation list  known-bad addresses, and
 *   1  AWS known bad inputs    exploit patterns: first, before any rule can allow (behaviour EDGE-9).
 *   2  AdminAllowlist          /dashboard* and /api/admin/* from outside the allowlist: 403
 *                              (only when an allowlist is configured; without one the deployer
 *                              declared the admin plane open, behaviour EXPOSURE-3),
 *                              except the self-service rows (API keys, which end users call),
 *                              each by its method and strict path (behaviour EDGE-4).
 *   3  BlockNonCanonicalPaths  a path no rule below would read as its route: doubled slashes,
 *                              dot segments, backslashes, encoded percent signs, and outside the
 *                              admin paths anything but lower-case letters, digits, `.`, `_`, `-`
 *                              (behaviour EDGE-8). So the rate rules read the path as sent.
 *   4  Rate-AnyRequest         per client IP, every request whatever its path (behaviour EDGE-7).
 *  10+ Rate-<class or group>   per client IP (lib/edge-rules.ts), every row counted by one: a rule
 *                              per limit, window and action of the rows without a group, keyed on
 *                              the address and the path (each row its own counter), and one per
 *                              named group, counting its rows together. AWS WAF allows 10
 *                              rate-based rules per web ACL, the catch-all included (behaviour EDGE-7).
 *  next AllowPublicDocuments   GET discovery documents and /api/health, and
 *       AllowTokenChecks       GET /api/userinfo and /api/token/validate: after their light rate
 *                              rules, allowed past the rule groups below (behaviour EDGE-2).
 *  then AWS common rule set    and Bot Control when enabled (scoped to browser paths: it blocks
 *                              HTTP libraries, which is what OAuth clients and SDKs are).
 *                              The common rule set's SizeRestrictions_BODY only labels; right
 *                              after it, BlockLargeBodies blocks on that label except on the
 *                              rows with `largeBody` (the logo upload; behaviour EDGE-6).
 * Default action: allow.
 *
 * Blocks answer in the service's error shape (custom response bodies below): 429
 * `too_many_requests` with Retry-After for rate rules, 403 `access_denied` for the allowlist,
 * 400 `invalid_request` for a non-canonical path. Managed-group blocks use API Gateway's
 * WAF_FILTERED response (lib/gateway-responses.ts). The web ACL's capacity (lib/waf-capacity.ts)
 * is reported at synth when it passes the 1,500 WCU the base price includes.
 */
import { Annotations, ArnFormat, Fn, Stack } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { networkRefusalDescription } from '../lambdas/core/admin-network';
import { endpointPaths, routes as routeTable, type HttpMethod, type Route } from '../lambdas/routes';
import {
  anywherePattern,
  challengeCeilingFactor,
  chunkPaths,
  edgeRateRules,
  edgeRowRates,
  encodedPathPrefixes,
  pathRegexes,
  pathsPattern,
  strictPathPattern,
  underPattern,
  type EdgeRateRule,
  type WafRate,
  wafMaxRateBasedRules,
  wafMinimumLimit,
  wafWindows,
  wafRegexMaxLength,
} from './edge-rules';

export { challengeCeilingFactor };
import { includedCapacity, maximumCapacity, webAclCapacity } from './waf-capacity';

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
  /**
   * The rule every request meets, per client IP, whatever its path (behaviour EDGE-7).
   * @default 2,000 per 60 s
   */
  readonly catchAll?: WafRate;
  /** Retention of the WAF log group. */
  readonly logRetention: logs.RetentionDays;
}

/**
 * Above the light rules a resource server may use together (userinfo and validate at 600 a
 * minute each, introspection at 300), so none of them is stopped by it; any flood from one
 * address over about 33 a second is, whatever it aims at.
 */
export const defaultCatchAll: WafRate = { limit: 2000, windowSeconds: 60 };

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
export const nonCanonicalPathBody = 'non-canonical-path';
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
  /** The web ACL's capacity in WCU, as lib/waf-capacity.ts prices it (an upper bound). */
  readonly capacity: number;

  constructor(scope: Construct, id: string, props: ApiWebAclProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const metricPrefix = stack.stackName.replace(/[^A-Za-z0-9_-]/g, '');
    const stage = props.stageName;
    const rows = props.routes ?? routeTable;
    this.rateRules = edgeRateRules(rows, stage);
    const allowlist = props.adminAllowlist ?? [];
    const adminPrefixes = props.adminPathPrefixes ?? ['/dashboard', '/api/admin/'];

    for (const { route, limit, windowSeconds, requested } of edgeRowRates(rows).filter((r) => r.requested)) {
      Annotations.of(this).addWarningV2(
        `authorization-server:waf-rate-fitted-${route.name}`,
        `Route ${route.name} asks for ${requested!.limit} per ${requested!.windowSeconds} s, which AWS WAF cannot express; ` +
          `deployed as ${limit} per ${windowSeconds} s${requested!.looser ? ' (LOOSER than asked: the service must enforce the rest)' : ''}. ` +
          'State the WAF values in the row (lambdas/routes.ts) with the reason.',
      );
    }

    const rules: wafv2.CfnWebACL.RuleProperty[] = [];
    const managed = (
      name: string,
      priority: number,
      extra: Partial<wafv2.CfnWebACL.ManagedRuleGroupStatementProperty> = {},
    ): wafv2.CfnWebACL.RuleProperty => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name, ...extra } },
      visibilityConfig: visibility(`${metricPrefix}-${name}`),
    });
    // Behaviour EDGE-9: known-bad addresses and exploit patterns meet a block before any rule can allow.
    rules.push(managed('AWSManagedRulesAmazonIpReputationList', 0));
    rules.push(managed('AWSManagedRulesKnownBadInputsRuleSet', 1));

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
      const adminPath = pathMatches(
        [adminPrefixes.map((p) => anywherePattern(p.toLowerCase())).join('|')],
        ['URL_DECODE', 'URL_DECODE', 'URL_DECODE', 'NORMALIZE_PATH', 'LOWERCASE'],
      );
      rules.push({
        name: 'AdminAllowlist',
        priority: 2,
        action: { block: { customResponse: { responseCode: 403, customResponseBodyKey: accessDeniedBody } } },
        statement: and(
          adminPath,
          ...(selfService.length > 0
            ? [
                {
                  notStatement: {
                    statement: or(
                      selfService.map((row) =>
                        and(methodIs(row.method), pathMatches([strictPathPattern(row.path, stage)], ['URL_DECODE'])),
                      ),
                    ),
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

    // Behaviour EDGE-8: one spelling per path. A route reached under another spelling (decoded,
    // its slashes or dot segments normalized by whatever routes it, a trailing slash) would miss
    // its rate rule, or get a counter of its own from a rule that counts per path, since the rules
    // read the path as sent: such paths are refused here instead. The admin paths carry ids that
    // may be percent-encoded (a client id that is a URL); their rule reads the decoded path and
    // counts them together, and a decoding that yields dot segments or doubled slashes is refused.
    const oddSegments = '(^|/)\\.\\.?(/|$)|\\\\';
    rules.push({
      name: 'BlockNonCanonicalPaths',
      priority: 3,
      action: { block: { customResponse: { responseCode: 400, customResponseBodyKey: nonCanonicalPathBody } } },
      statement: or([
        pathMatches([`//|${oddSegments}|%25`], []),
        // `://` is let through decoded: a client id that is a URL (https%3A%2F%2F…) spells one.
        pathMatches([`(^|[^:])//|${oddSegments}`], ['URL_DECODE']),
        and(
          {
            notStatement: {
              statement: pathMatches(
                encodedPathPrefixes.map((p) => underPattern(p, stage)),
                [],
              ),
            },
          },
          // No trailing slash either: a rule that counts per path would count it apart.
          { notStatement: { statement: pathMatches([`^(/${escapeRegex(stage)})?((/[a-z0-9._-]+)+|/?)$`], []) } },
        ),
      ]),
      visibilityConfig: visibility(`${metricPrefix}-non-canonical-paths`),
    });

    const blockWith429 = (windowSeconds: number): wafv2.CfnWebACL.RuleActionProperty => ({
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: tooManyRequestsBody,
          responseHeaders: [{ name: 'Retry-After', value: String(windowSeconds) }],
        },
      },
    });
    // Behaviour EDGE-7: every request of an address, whatever it aims at.
    const catchAll = props.catchAll ?? defaultCatchAll;
    // A catch-all below a row's own rate would refuse a caller its row allows (behaviour EDGE-7).
    const busiest = Math.max(...this.rateRules.map((rule) => rule.limit / rule.windowSeconds));
    if (
      !wafWindows.includes(catchAll.windowSeconds) ||
      !Number.isInteger(catchAll.limit) ||
      catchAll.limit < wafMinimumLimit ||
      catchAll.limit / catchAll.windowSeconds < busiest
    ) {
      throw new Error(
        `The catch-all rate rule (${catchAll.limit} per ${catchAll.windowSeconds} s) must be a whole limit of at least ${wafMinimumLimit} ` +
          `over 60, 120, 300 or 600 s, and at least the busiest edge rule's rate (${Math.round(busiest * 60)} a minute).`,
      );
    }
    rules.push({
      name: 'Rate-AnyRequest',
      priority: 4,
      action: blockWith429(catchAll.windowSeconds),
      statement: { rateBasedStatement: { limit: catchAll.limit, evaluationWindowSec: catchAll.windowSeconds, aggregateKeyType: 'IP' } },
      visibilityConfig: visibility(`${metricPrefix}-any-request`),
    });

    let priority = 10;
    const rateRule = (rule: EdgeRateRule): wafv2.CfnWebACL.RuleProperty => {
      const transformations = rule.decoded ? ['URL_DECODE'] : [];
      const scopeDownStatement = rule.pathPrefixes
        ? pathMatches(pathRegexes(rule, stage), transformations)
        : or(rule.paths.map(({ method, paths }) => and(methodIs(method), pathMatches(pathRegexes(rule, stage, paths), transformations))));
      return {
        name: rule.name,
        priority: priority++,
        // Challenge works only for browsers (a JavaScript interstitial); rows use it only for
        // browser form posts. A request carrying a solved challenge's token is only counted by
        // it, so each challenge row is also counted by a Block rule at challengeCeilingFactor
        // times its rate (a class's ceiling is the block class of that rate).
        action: rule.action === 'block' ? blockWith429(rule.windowSeconds) : { challenge: {} },
        statement: {
          rateBasedStatement: {
            limit: rule.limit,
            evaluationWindowSec: rule.windowSeconds,
            // The connecting address, never a forwarded header (attacker-controlled); for a class,
            // with the path as sent, so each of its rows keeps its own counter (behaviour EDGE-7).
            ...(rule.counting === 'per-path'
              ? {
                  aggregateKeyType: 'CUSTOM_KEYS',
                  customKeys: [{ ip: {} }, { uriPath: { textTransformations: [{ priority: 0, type: 'NONE' }] } }],
                }
              : { aggregateKeyType: 'IP' }),
            scopeDownStatement,
          },
        },
        visibilityConfig: visibility(`${metricPrefix}-${rule.name}`),
      };
    };
    for (const rule of this.rateRules) rules.push(rateRule(rule));
    const rateBased = rules.filter((rule) => (rule.statement as wafv2.CfnWebACL.StatementProperty).rateBasedStatement).length;
    if (rateBased > wafMaxRateBasedRules) {
      throw new Error(
        `The web ACL would hold ${rateBased} rate-based rules; AWS WAF allows ${wafMaxRateBasedRules}. Give rows the limit, window and ` +
          'action of an existing rule, or share a group (lambdas/routes.ts `edge`).',
      );
    }

    // Behaviour EDGE-2: past their light rate rules (above), nothing below blocks these.
    rules.push({
      name: 'AllowPublicDocuments',
      priority: priority++,
      action: { allow: {} },
      statement: and(methodIs('GET'), pathMatches([pathsPattern(publicDocumentPaths, stage)], [])),
      visibilityConfig: visibility(`${metricPrefix}-public-documents`),
    });
    rules.push({
      name: 'AllowTokenChecks',
      priority: priority++,
      action: { allow: {} },
      statement: and(methodIs('GET'), pathMatches([pathsPattern(lightlyLimitedPaths, stage)], [])),
      visibilityConfig: visibility(`${metricPrefix}-token-checks`),
    });

    rules.push(
      managed('AWSManagedRulesCommonRuleSet', priority++, {
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
      // The exception reads the path as sent: a spelling that needs decoding is not excepted.
      statement:
        largeBodyRows.length === 0
          ? oversized
          : and(oversized, {
              notStatement: {
                statement: or(largeBodyRows.map((r) => and(methodIs(r.method), pathMatches([pathsPattern([r.path], stage)], [])))),
              },
            }),
      visibilityConfig: visibility(`${metricPrefix}-large-bodies`),
    });
    if (props.botControl) {
      const browserPaths = [...new Set(rows.filter((r) => r.edge?.action === 'challenge').map((r) => r.path))];
      rules.push(
        managed('AWSManagedRulesBotControlRuleSet', priority++, {
          managedRuleGroupConfigs: [{ awsManagedRulesBotControlRuleSet: { inspectionLevel: 'COMMON' } }],
          scopeDownStatement: pathMatches(
            [
              ...chunkPaths(browserPaths, stage).map((paths) => pathsPattern(paths, stage)),
              ...adminPrefixes.filter((p) => p === '/dashboard').map((p) => underPattern(p, stage)),
            ],
            [],
          ),
        }),
      );
    }
    this.capacity = webAclCapacity(rules).total;
    if (this.capacity > includedCapacity) {
      Annotations.of(this).addWarningV2(
        'authorization-server:waf-capacity',
        `The web ACL needs about ${this.capacity} WCU (lib/waf-capacity.ts): above the ${includedCapacity} the base price includes, ` +
          `AWS WAF bills every further 500 per million requests, and refuses more than ${maximumCapacity}. Share an edge rule between rows ` +
          '(lambdas/routes.ts `edge.shared`) or drop an option.',
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
          // The same words as the self-service key routes' own check (behaviour EDGE-4).
          content: JSON.stringify({ error: 'access_denied', error_description: networkRefusalDescription }),
        },
        [nonCanonicalPathBody]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            error: 'invalid_request',
            error_description: 'The request path is not spelled as this server publishes it (no encoded, doubled or dot segments).',
          }),
        },
      },
      rules,
      // The logging configuration's redaction below covers the log only: sampled requests (kept
      // about 3 hours, shown in the console and by GetSampledRequests) carry every header in full,
      // a live reset token in its cookie included (behaviour RESET-8, EDGE-4). Data protection at
      // the web ACL applies to every output, sampled requests and rule-match details (which may
      // quote the body: a password) as well as the log.
      dataProtectionConfig: {
        dataProtections: [
          ...redactedHeaders.map((name) => ({ field: { fieldType: 'SINGLE_HEADER', fieldKeys: [name] }, action: 'SUBSTITUTION' })),
          { field: { fieldType: 'SINGLE_COOKIE' }, action: 'SUBSTITUTION' },
          { field: { fieldType: 'QUERY_STRING' }, action: 'SUBSTITUTION' },
          { field: { fieldType: 'BODY' }, action: 'SUBSTITUTION' },
        ],
      },
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

/**
 * A regex on the URI path after `transformations` (in order), for each pattern: several patterns
 * become an or of them. Each pattern must fit AWS WAF's 200 characters (chunks() splits lists).
 */
function pathMatches(patterns: readonly string[], transformations: readonly string[]): wafv2.CfnWebACL.StatementProperty {
  return or(
    patterns.map((regexString) => {
      if (regexString.length > wafRegexMaxLength) throw new Error(`a WAF regex over ${wafRegexMaxLength} characters: ${regexString}`);
      return {
        regexMatchStatement: {
          fieldToMatch: { uriPath: {} },
          regexString,
          textTransformations:
            transformations.length > 0 ? transformations.map((type, priority) => ({ priority, type })) : [{ priority: 0, type: 'NONE' }],
        },
      };
    }),
  );
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
