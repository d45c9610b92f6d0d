/**
 * Workload rules (behaviour TRUST-6): how a rule's `subject` pattern and `claims` meet a token's
 * claims. One place for the rule, so the admin API's validation and the grant agree.
 */
import type { WorkloadRule } from './model';

/** A pattern's longest form: bounds the regular expression built from it. */
export const maxSubjectPatternLength = 512;

/**
 * Whether `subject` matches `pattern`: `*` stands for one or more characters other than `/` (one
 * path segment of a SPIFFE ID, one repository name of a CI subject), `**` for one or more of any
 * characters; every other character stands for itself. Three or more `*` in a row are refused by
 * the admin API (isSubjectPattern), so no pattern is ambiguous.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  if (!pattern.includes('*')) return pattern === subject;
  // Matched position by position, never by a regular expression: a pattern of many wildcards
  // costs (pattern length x subject length), not the backtracking of a regex (ReDoS).
  const tokens = pattern.split(/(\*\*|\*)/).flatMap((part) => (part === '*' || part === '**' ? [part] : part.split('')));
  let reached = [true, ...Array<boolean>(subject.length).fill(false)];
  for (const token of tokens) {
    const next = Array<boolean>(subject.length + 1).fill(false);
    for (let j = 1; j <= subject.length; j++) {
      const c = subject[j - 1];
      if (token === '**') next[j] = reached[j - 1]! || next[j - 1]!;
      else if (token === '*') next[j] = (reached[j - 1]! || next[j - 1]!) && c !== '/';
      else next[j] = reached[j - 1]! && c === token;
    }
    reached = next;
  }
  return reached[subject.length]!;
}

/** What the admin API accepts as a subject: non-empty, bounded, no run of three or more `*`. */
export function isSubjectPattern(pattern: string): boolean {
  return pattern.length > 0 && pattern.length <= maxSubjectPatternLength && !pattern.includes('***');
}

/**
 * Whether a token's claims satisfy the rule: its `sub` is a string matching `subject`, and each
 * claim the rule names is a string claim of the token equal to the rule's value (a number or a
 * boolean claim never equals, so `"1"` cannot be met by `1`).
 */
export function workloadRuleMatches(rule: WorkloadRule, claims: Readonly<Record<string, unknown>>): boolean {
  if (typeof claims.sub !== 'string' || !subjectMatches(rule.subject, claims.sub)) return false;
  return Object.entries(rule.claims ?? {}).every(([name, value]) => Object.hasOwn(claims, name) && claims[name] === value);
}

/** The first rule the claims satisfy, which decides (rules are tried in their stored order). */
export function matchingWorkloadRule(
  rules: readonly WorkloadRule[] | undefined,
  claims: Readonly<Record<string, unknown>>,
): WorkloadRule | undefined {
  return rules?.find((rule) => workloadRuleMatches(rule, claims));
}
