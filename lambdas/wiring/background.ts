/**
 * Work that must not happen on the request path (behaviour RESET-1): POST /forgot-password answers
 * before it looks the address up, so its response time cannot tell whether an account exists;
 * the sign-in routes likewise hand off the owner's mail of a tripped password ceiling (behaviour
 * PWFAIL-5).
 *
 * In Lambda the function invokes itself asynchronously (`InvocationType: Event`, the route row
 * says `invokesSelf`), and the invocation runs the job: nothing of it is awaited by the
 * request. Locally (the server and the tests) the job runs on the next turn of the event loop
 * of the same process, after the response is written; tests can wait for it to settle.
 */
import { createEventInvoker } from '../adapters/lambda-invoker';
/** A self-invoked job runs under the invocation's deadline, as a request does (wiring/handler.ts). */
export { runWithinDeadline } from '../adapters/aws/invocation-deadline';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';

export type BackgroundJob =
  | { readonly kind: 'password-reset-mail'; readonly email: string }
  | { readonly kind: 'password-ceiling-mail'; readonly email: string; readonly untilEpoch: number };

export type BackgroundJobOf<K extends BackgroundJob['kind']> = Extract<BackgroundJob, { kind: K }>;

/** The event of a self-invocation; API Gateway never sends this shape (its bodies are strings). */
export interface BackgroundInvocation {
  readonly backgroundJob: BackgroundJob;
}

/** A self-invocation carrying a job of `kind`, the one kind the receiving function runs. */
export function isBackgroundInvocation<K extends BackgroundJob['kind'] = 'password-reset-mail'>(
  event: unknown,
  kind: K = 'password-reset-mail' as K,
): event is { readonly backgroundJob: BackgroundJobOf<K> } {
  const job = (event as { backgroundJob?: Record<string, unknown> } | null)?.backgroundJob;
  if (typeof job !== 'object' || job === null || job.kind !== kind || typeof job.email !== 'string') return false;
  return kind !== 'password-ceiling-mail' || typeof job.untilEpoch === 'number';
}

export type JobRunner<J extends BackgroundJob = BackgroundJob> = (job: J) => Promise<void>;

const pending = new Set<Promise<void>>();

/** Resolves once every locally started job has finished (tests, and the local server's shutdown). */
export async function settleBackgroundJobs(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

const getDispatcher = perContainer((env) => {
  const functionName = env.AWS_LAMBDA_FUNCTION_NAME;
  if (functionName) {
    const invoke = createEventInvoker(functionName, awsClientSettings(env));
    return async (job: BackgroundJob) => {
      await invoke(JSON.stringify({ backgroundJob: job }));
    };
  }
  return async (job: BackgroundJob, run: JobRunner<never>) => {
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => (run as JobRunner)(job))
      .catch((error: unknown) => getContainer().log.error('background job failed', { kind: job.kind, error: (error as Error).name }))
      .finally(() => pending.delete(done));
    pending.add(done);
  };
});

/** Hands `job` to `run` off the request path; resolves once it is handed over, not done. */
export function dispatchInBackground<J extends BackgroundJob>(job: J, run: JobRunner<J>): Promise<void> {
  return getDispatcher()(job, run as JobRunner<never>);
}
