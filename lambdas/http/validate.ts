import * as z from 'zod/mini';
import { InvalidRequestError, type OAuthError } from '../core/errors';

type ErrorClass = new (description: string) => OAuthError;

/**
 * English text for the common issues. zod/mini ships no messages ("Invalid input") and
 * `z.locales` would pull every language into each bundle; a schema's own message wins.
 */
function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
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

/**
 * Validates input against a zod schema; the first problem becomes a readable
 * description, e.g. `redirect_uris: expected array`. `As` picks the OAuth error,
 * since each endpoint has its own (invalid_client_metadata for registration).
 */
export function validate<S extends z.ZodMiniType>(schema: S, input: unknown, As: ErrorClass = InvalidRequestError): z.output<S> {
  const result = z.safeParse(schema, input, { error: describeIssue });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new As(`${where}${issue.message}`);
}
