/**
 * Which request a log line belongs to: API Gateway's request id, Lambda's, the route and,
 * once known, the client id (behaviour LOG-6). Kept per request in AsyncLocalStorage, not on the
 * per-container logger, because the local server (and a Lambda managed instance) runs several
 * requests at once in one process: a shared "current request" would mislabel their lines.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogFields } from '../core/ports';

const current = new AsyncLocalStorage<LogFields>();

/** Runs one request with its fields; every log line written inside carries them. */
export function runInRequest<T>(fields: LogFields, run: () => T): T {
  return current.run({ ...fields }, run);
}

/** Adds fields (the client id, once a client is found) to the rest of this request's lines. */
export function annotateRequest(fields: LogFields): void {
  const store = current.getStore();
  if (store) Object.assign(store, fields);
}

/** Names the request's client (behaviour LOG-6): its id, as presented or found, on every later line. */
export function labelClient(clientId: string): void {
  annotateRequest({ clientId });
}

/** The current request's fields; none outside a request (container start-up, background jobs). */
export function requestFields(): LogFields {
  return current.getStore() ?? {};
}
