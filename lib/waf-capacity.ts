/**
 * Web ACL capacity units (WCU) of a web ACL's rules, as the AWS WAF developer guide prices each
 * statement ("Web ACL capacity units", and the WCUs line of each rule statement's page): AWS WAF
 * refuses a web ACL over 5,000 and bills every 500 above 1,500 per million requests (behaviour
 * EDGE-10). Reads the rules in either spelling, CDK's (`andStatement`) or CloudFormation's
 * (`AndStatement`), so the construct and the template tests count the same way. An unknown
 * statement throws: a rule of a new kind must be priced here before it deploys.
 *
 * The sum is an upper bound: AWS WAF may charge a text transformation shared by several rules
 * once (same component, same transformations), which lowers what the console shows.
 */

/** The base price of a web ACL includes this much capacity. */
export const includedCapacity = 1500;
/** AWS WAF refuses a web ACL above this. */
export const maximumCapacity = 5000;

/** Fixed capacity of the AWS managed rule groups this stack uses (AWS Managed Rules rule groups list). */
export const managedRuleGroupCapacity: Readonly<Record<string, number>> = {
  AWSManagedRulesAmazonIpReputationList: 25,
  AWSManagedRulesKnownBadInputsRuleSet: 200,
  AWSManagedRulesCommonRuleSet: 700,
  AWSManagedRulesBotControlRuleSet: 50,
};

// biome-ignore lint/suspicious/noExplicitAny: a statement in either spelling, walked generically
type Json = any;

/** A property in CDK's or CloudFormation's spelling (`ipSet…` is `IPSet…` there). */
const get = (object: Json, name: string): Json => {
  const pascal = name[0]!.toUpperCase() + name.slice(1);
  return object?.[name] ?? object?.[pascal] ?? object?.[pascal.replace(/^IpSet/, 'IPSet').replace(/ForwardedIp/, 'ForwardedIP')];
};

/** 10 per text transformation other than NONE. */
function transformations(statement: Json): number {
  const list: Json[] = get(statement, 'textTransformations') ?? [];
  return 10 * list.filter((t) => get(t, 'type') !== 'NONE').length;
}

/** Base cost adjusted for the request component inspected. */
function component(statement: Json, base: number): number {
  const field = get(statement, 'fieldToMatch') ?? {};
  if (get(field, 'jsonBody')) return base * 2;
  if (get(field, 'allQueryArguments')) return base + 10;
  return base;
}

export function statementCapacity(statement: Json): number {
  const and = get(statement, 'andStatement');
  if (and) return (get(and, 'statements') as Json[]).reduce((sum, s) => sum + statementCapacity(s), 0);
  const or = get(statement, 'orStatement');
  if (or) return (get(or, 'statements') as Json[]).reduce((sum, s) => sum + statementCapacity(s), 0);
  const not = get(statement, 'notStatement');
  if (not) return statementCapacity(get(not, 'statement'));
  const byte = get(statement, 'byteMatchStatement');
  if (byte) {
    const base = ['CONTAINS', 'CONTAINS_WORD'].includes(get(byte, 'positionalConstraint')) ? 10 : 2;
    return component(byte, base) + transformations(byte);
  }
  const regex = get(statement, 'regexMatchStatement');
  if (regex) return component(regex, 3) + transformations(regex);
  const patternSet = get(statement, 'regexPatternSetReferenceStatement');
  if (patternSet) return component(patternSet, 25) + transformations(patternSet);
  const size = get(statement, 'sizeConstraintStatement');
  if (size) return component(size, 1) + transformations(size);
  const ipSet = get(statement, 'ipSetReferenceStatement');
  if (ipSet) return get(get(ipSet, 'ipSetForwardedIpConfig'), 'position') === 'ANY' ? 5 : 1;
  if (get(statement, 'labelMatchStatement') || get(statement, 'geoMatchStatement')) return 1;
  const rate = get(statement, 'rateBasedStatement');
  if (rate) {
    const scopeDown = get(rate, 'scopeDownStatement');
    return 2 + 30 * (get(rate, 'customKeys') ?? []).length + (scopeDown ? statementCapacity(scopeDown) : 0);
  }
  const managed = get(statement, 'managedRuleGroupStatement');
  if (managed) {
    const name: string = get(managed, 'name');
    const capacity = managedRuleGroupCapacity[name];
    if (capacity === undefined) throw new Error(`no capacity known for the managed rule group ${name}`);
    const scopeDown = get(managed, 'scopeDownStatement');
    return capacity + (scopeDown ? statementCapacity(scopeDown) : 0);
  }
  throw new Error(`no capacity known for the statement ${JSON.stringify(Object.keys(statement ?? {}))}`);
}

export interface RuleCapacity {
  readonly name: string;
  readonly capacity: number;
}

/** Each rule's capacity, in the order given, and their sum. */
export function webAclCapacity(rules: readonly Json[]): { readonly total: number; readonly rules: readonly RuleCapacity[] } {
  const each = rules.map((rule) => ({ name: get(rule, 'name') as string, capacity: statementCapacity(get(rule, 'statement')) }));
  return { total: each.reduce((sum, rule) => sum + rule.capacity, 0), rules: each };
}
