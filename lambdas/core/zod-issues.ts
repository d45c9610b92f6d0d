/**
 * The readable text of zod issues, shared by http/validate.ts and the domain's own parsing
 * (registration metadata), so every endpoint says `field: expected string`, never zod/mini's
 * bare "Invalid input".
 */
import type * as z from 'zod/mini';

/**
 * English text for the common issues. zod/mini ships no messages ("Invalid input") and
 * `z.locales` would pull every language into each bundle; a schema's own message wins.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  const bound = (origin: unknown, limit: string, value: unknown) => {
    const plural = Number(value) === 1 ? '' : 's';
    if (origin === 'string') return `must have ${limit} ${String(value)} character${plural}`;
    if (origin === 'array') return `must have ${limit} ${String(value)} item${plural}`;
    return `must be ${limit} ${String(value)}`;
  };
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected === 'int' ? 'a whole number' : issue.expected}`;
    case 'too_small':
      return bound(issue.origin, 'at least', issue.minimum);
    case 'too_big':
      return bound(issue.origin, 'at most', issue.maximum);
    case 'invalid_format':
      return issue.format === 'regex' ? 'has an invalid format' : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    default:
      return undefined;
  }
}
