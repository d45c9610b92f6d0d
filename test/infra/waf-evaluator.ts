/**
 * The synthesized web ACL's statements evaluated for a request as AWS WAF evaluates them (AWS WAF
 * developer guide: rule statements, text transformation options, how a web ACL evaluates a
 * request): and / or / not, a method byte match, a regex on the URI path after its text
 * transformations, IP sets; rules in priority order, the first Block or Allow ending the walk,
 * rate-based rules counting the requests their scope-down statement matches. What cannot be
 * emulated here is left out on purpose: AWS managed rule groups match nothing (so label matches
 * find no label), and no rate rule is ever over its limit, so the walk shows which rules see a
 * request, which is what a rule's protection depends on.
 */

export interface WafRequest {
  readonly method: string;
  /** The URI path as sent, before any decoding (what `UriPath` inspects). */
  readonly path: string;
  /** Whether the caller's address is in the admin allowlist's IP sets. */
  readonly inAllowlist?: boolean;
}

/** AWS WAF's text transformations used by the rules (AWS WAF developer guide, text transformation options). */
export function transform(value: string, type: string): string {
  switch (type) {
    case 'NONE':
      return value;
    case 'URL_DECODE':
      return value.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    case 'LOWERCASE':
      return value.toLowerCase();
    case 'NORMALIZE_PATH': {
      // Multiple slashes, self-references and back-references not at the beginning are removed.
      const segments = value.replace(/\/{2,}/g, '/').split('/');
      const out: string[] = [];
      for (const segment of segments) {
        if (segment === '.') continue;
        if (segment === '..' && out.length > 1 && out[out.length - 1] !== '..') out.pop();
        else out.push(segment);
      }
      return out.join('/');
    }
    default:
      throw new Error(`transformation ${type} not emulated`);
  }
}

/** One WAF statement, evaluated for a request. */
export function matches(statement: any, request: WafRequest): boolean {
  if (statement.AndStatement) return statement.AndStatement.Statements.every((s: unknown) => matches(s, request));
  if (statement.OrStatement) return statement.OrStatement.Statements.some((s: unknown) => matches(s, request));
  if (statement.NotStatement) return !matches(statement.NotStatement.Statement, request);
  if (statement.IPSetReferenceStatement) return request.inAllowlist === true;
  // Only managed rule groups label requests here, and they are not emulated.
  if (statement.LabelMatchStatement) return false;
  const field = (s: { FieldToMatch: Record<string, unknown>; TextTransformations: { Priority: number; Type: string }[] }) => {
    const raw = s.FieldToMatch.Method ? request.method : s.FieldToMatch.UriPath ? request.path : undefined;
    if (raw === undefined) throw new Error(`field ${JSON.stringify(s.FieldToMatch)} not emulated`);
    return [...s.TextTransformations].sort((a, b) => a.Priority - b.Priority).reduce((v, t) => transform(v, t.Type), raw);
  };
  if (statement.RegexMatchStatement)
    return new RegExp(statement.RegexMatchStatement.RegexString).test(field(statement.RegexMatchStatement));
  if (statement.ByteMatchStatement) {
    const s = statement.ByteMatchStatement;
    const value = field(s);
    switch (s.PositionalConstraint) {
      case 'EXACTLY':
        return value === s.SearchString;
      case 'CONTAINS':
        return value.includes(s.SearchString);
      case 'STARTS_WITH':
        return value.startsWith(s.SearchString);
      default:
        throw new Error(`byte match ${s.PositionalConstraint} not emulated`);
    }
  }
  throw new Error(`statement ${Object.keys(statement)} not emulated`);
}

export interface Evaluation {
  /** The Block rule that ended the walk (a rate rule never does here). */
  readonly blockedBy?: string;
  /** The Allow rule that ended the walk. */
  readonly allowedBy?: string;
  /** The rate-based rules that counted the request before the walk ended. */
  readonly countedBy: readonly string[];
  /** Which counter of each: the rule and its aggregation key beyond the address (the URI path, for a rule that keys on it). */
  readonly counters: readonly { readonly rule: string; readonly key: string }[];
}

/** The aggregation key of a rate rule beyond the address: the path after the key's transformations, or '' (address only). */
function keyOf(rate: any, request: WafRequest): string {
  if (rate.AggregateKeyType === 'IP') return '';
  if (rate.AggregateKeyType !== 'CUSTOM_KEYS') throw new Error(`aggregation ${rate.AggregateKeyType} not emulated`);
  return rate.CustomKeys.map((key: any) => {
    if (key.IP) return '';
    if (key.UriPath) {
      return [...key.UriPath.TextTransformations]
        .sort((a: any, b: any) => a.Priority - b.Priority)
        .reduce((v: string, t: any) => transform(v, t.Type), request.path);
    }
    throw new Error(`custom key ${Object.keys(key)} not emulated`);
  }).join('');
}

/** The rules of a web ACL (its CloudFormation properties) walked for one request. */
export function evaluate(webAcl: any, request: WafRequest): Evaluation {
  const counters: { rule: string; key: string }[] = [];
  const done = (end: { blockedBy?: string; allowedBy?: string }): Evaluation => ({
    ...end,
    countedBy: counters.map((c) => c.rule),
    counters,
  });
  for (const rule of [...webAcl.Rules].sort((a: any, b: any) => a.Priority - b.Priority)) {
    const statement = rule.Statement;
    if (statement.ManagedRuleGroupStatement) continue;
    if (statement.RateBasedStatement) {
      const scopeDown = statement.RateBasedStatement.ScopeDownStatement;
      if (!scopeDown || matches(scopeDown, request)) counters.push({ rule: rule.Name, key: keyOf(statement.RateBasedStatement, request) });
      continue;
    }
    if (!matches(statement, request)) continue;
    if (rule.Action?.Block) return done({ blockedBy: rule.Name });
    if (rule.Action?.Allow) return done({ allowedBy: rule.Name });
  }
  return done({});
}
