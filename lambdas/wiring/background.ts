/**
 * Work that must not happen on the request path (issue 12): POST /forgot-password answers
 * before it looks the address up, so its response time cannot tell whether an account exists.
 *
 * In Lambda the function invokes itself asynchronously (`InvocationType: Event`, the route row
 * says `invokesSelf`), and the invocation runs the job: nothing of it is awaited by the
 * request. Locally (the server and the tests) the job runs on the next turn of the event loop
 * of the same process, after the response is written; tests can wait for it to settle.
 */
import { createEventInvoker } from '../adapters/lambda-invoker';
import { awsClientSettings } from './aws';
import { getContainer, perContainer } from './container';

export interface BackgroundJob {
  readonly kind: 'password-reset-mail';
  readonly email: string;
}

/** The event of a self-invocation; API Gateway never sends this shape (its bodies are strings). */
export interface BackgroundInvocation {
  readonly backgroundJob: BackgroundJob;
}

export function isBackgroundInvocation(event: unknown): event is BackgroundInvocation {
  const job = (event as { backgroundJob?: Partial<BackgroundJob> } | null)?.backgroundJob;
  return typeof job === 'object' && job !== null && job.kind === 'password-reset-mail' && typeof job.email === 'string';
}

export type JobRunner = (job: BackgroundJob) => Promise<void>;

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
  return async (job: BackgroundJob, run: JobRunner) => {
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => run(job))
      .catch((error: unknown) => getContainer().log.error('background job failed', { kind: job.kind, error: (error as Error).name }))
      .finally(() => pending.delete(done));
    pending.add(done);
  };
});

/** Hands `job` to `run` off the request path; resolves once it is handed over, not done. */
export function dispatchInBackground(job: BackgroundJob, run: JobRunner): Promise<void> {
  return getDispatcher()(job, run);
}
