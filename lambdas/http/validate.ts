import * as z from 'zod/mini';
import { InvalidRequestError, type OAuthError } from '../core/errors';
import { describeIssue } from '../core/zod-issues';

type ErrorClass = new (description: string) => OAuthError;

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
