/**
 * The failure row of a token request (behaviour LOG-1, LOG-2): one activity row per attempt; a
 * success writes its row inside the issuance write, a failure writes it here with the
 * real reason. A failed log write must not hide the request's own failure.
 */
import { OAuthError } from '../core/errors';
import type { TokenRequestActivity } from '../core/grants/activity';
import type { ActivityRow } from '../core/model';
import type { Logger } from '../core/ports';
import { errorCodeOf } from './errors';

export async function recordFailure(
  activity: TokenRequestActivity,
  error: unknown,
  log: Logger,
  recordActivity: (row: ActivityRow) => Promise<void>,
): Promise<void> {
  // The code the caller was answered with (lambdas/http/errors.ts maps a database that did not
  // answer to 503 temporarily_unavailable), and the internal reason after it.
  const code = errorCodeOf(error);
  const reason = error instanceof OAuthError ? `${code}: ${error.reason}` : `${code}: ${(error as Error)?.name ?? 'unknown'}`;
  try {
    await recordActivity(activity.row(false, reason));
  } catch (writeError) {
    log.error('activity row not written', { cause: writeError });
  }
}
