/**
 * A test double for DynamoDB trouble, in the wiring's own client (getStorage().db): an AWS SDK
 * middleware placed just inside the SDK's retry middleware, so it sees every attempt the SDK
 * makes, as DynamoDB or the network would. A fault either
 *
 * - stops an attempt `before` it is sent (throttling, a 500, a refused connection): the
 *   database never sees it; or
 * - loses the reply `after` the attempt reached the database (a reset connection, a
 *   timeout): the write happened, the SDK does not know and sends it again.
 *
 * It can also `hold` an attempt (it waits, unsent, until released), so a test can run a race in
 * the order it wants: hold one request's write, let another request run to the end, release.
 *
 * Every fault is one the SDK's standard retry mode retries, so a rule that fails fewer attempts
 * than the client's budget (3 attempts, lambdas/adapters/dynamodb/client.ts `dynamoCallBounds`) is
 * absorbed by it, and one that fails them all reaches our code as the last attempt's error.
 * Nothing of ours is replaced.
 */
import { InternalServerError, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getStorage } from '../../lambdas/wiring/storage';

export type FaultPhase = 'before' | 'after';

/** One attempt as the SDK is about to send it: the operation and its wire (marshalled) input. */
export interface Attempt {
  /** DynamoDB's operation name: GetItem, PutItem, UpdateItem, DeleteItem, TransactWriteItems, BatchGetItem, ... */
  readonly operation: string;
  readonly input: Record<string, unknown>;
}

const middlewareName = 'testDynamoFaults';

export interface FaultRule {
  readonly operation: string;
  readonly phase: FaultPhase;
  /** Narrows the rule, e.g. to one key prefix (see `touches`). */
  readonly where?: (attempt: Attempt) => boolean;
  /** How many attempts to fail; the default fails every one (the whole retry budget). */
  readonly times?: number;
  /**
   * What DynamoDB answers instead (`before` only), e.g. `transactionConflict()`: an answer the
   * SDK does not retry, so our code sees each one.
   */
  readonly answer?: () => Error;
}

/** A transaction cancelled because a concurrent one held its items (nothing written), as DynamoDB answers it. */
export function transactionConflict(items = 1): Error {
  return Object.assign(new Error('Transaction cancelled (test fault: conflict)'), {
    name: 'TransactionCanceledException',
    CancellationReasons: Array.from({ length: items }, () => ({ Code: 'TransactionConflict' })),
    ...metadata(400),
  });
}

export interface RandomFaults {
  /** Probability in [0, 1] that an attempt fails. */
  readonly rate: number;
  /** A seed, so that a failing run can be repeated. */
  readonly seed: number;
  /** Which operations may fail; the default: all. */
  readonly where?: (attempt: Attempt) => boolean;
}

export interface FaultRecord {
  readonly operation: string;
  readonly phase: FaultPhase;
}

/** Whether any key or item of the attempt has a `pk` starting with `prefix` (transactions and batches included). */
export function touches(attempt: Attempt, prefix: string): boolean {
  const found: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    const pk = (value as { pk?: { S?: unknown } }).pk;
    if (pk && typeof pk.S === 'string') found.push(pk.S);
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  visit(attempt.input, 0);
  return found.some((pk) => pk.startsWith(prefix));
}

/** A tiny seeded generator (mulberry32): the same seed gives the same fault sequence. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const metadata = (httpStatusCode?: number) => ({ $metadata: { ...(httpStatusCode ? { httpStatusCode } : {}), attempts: 1 } });

/** What the SDK raises when DynamoDB or the network fails this way. */
function faultError(phase: FaultPhase, pick: number): Error {
  if (phase === 'after') {
    return Object.assign(new Error('socket hang up (test fault: the reply was lost)'), { code: 'ECONNRESET', ...metadata() });
  }
  if (pick < 1 / 3) {
    return new ProvisionedThroughputExceededException({ message: 'test fault: throughput exceeded', ...metadata(400) });
  }
  if (pick < 2 / 3) return new InternalServerError({ message: 'test fault: internal server error', ...metadata(500) });
  return Object.assign(new Error('connect ECONNREFUSED (test fault)'), { code: 'ECONNREFUSED', ...metadata() });
}

/** One held attempt: `reached` resolves when an attempt matched (and waits); `release()` sends it on. */
export interface Hold {
  readonly reached: Promise<Attempt>;
  release(): void;
}

export class DynamoFaults {
  private readonly rules: { rule: FaultRule; left: number }[] = [];
  private readonly holds: { where: (attempt: Attempt) => boolean; arrived: (attempt: Attempt) => void; released: Promise<void> }[] = [];
  private random: (RandomFaults & { next: () => number }) | undefined;
  /** Every fault injected, in order. */
  readonly injected: FaultRecord[] = [];
  /** Every attempt seen, failed or not. */
  readonly attempts: Attempt[] = [];

  private constructor(private readonly client: DynamoDBDocumentClient) {}

  /** Puts the double into the wiring's client (or another); remove it with `uninstall()`. */
  static install(client: DynamoDBDocumentClient = getStorage().db): DynamoFaults {
    const faults = new DynamoFaults(client);
    const middleware = (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      const attempt: Attempt = {
        operation: (context.commandName ?? '').replace(/Command$/, ''),
        input: ((args as { input?: Record<string, unknown> }).input ?? {}) as Record<string, unknown>,
      };
      faults.attempts.push(attempt);
      await faults.waitIfHeld(attempt);
      const phase = faults.decide(attempt);
      if (phase === 'before') throw faults.decidedAnswer ? faults.answered(attempt) : faults.record(attempt, phase);
      if (phase === 'after') {
        // The database applies it (or refuses it); either way the reply never arrives.
        await next(args).catch(() => undefined);
        throw faults.record(attempt, phase);
      }
      return next(args);
    };
    client.middlewareStack.addRelativeTo(middleware as unknown as Parameters<typeof client.middlewareStack.addRelativeTo>[0], {
      name: middlewareName,
      relation: 'after',
      toMiddleware: 'retryMiddleware',
      override: true,
    });
    return faults;
  }

  /** Fails the attempts matching `rule` (by default all of them, i.e. the client's whole retry budget). */
  fail(rule: FaultRule): this {
    this.rules.push({ rule, left: rule.times ?? Number.POSITIVE_INFINITY });
    return this;
  }

  /** Fails a share of all matching attempts, half before and half after they reach the database. */
  randomly(faults: RandomFaults): this {
    this.random = { ...faults, next: seeded(faults.seed) };
    return this;
  }

  /**
   * Holds the first attempt for which `where` is true (and only that one) until `release()`.
   * A timeout is the test's business: a hold never released keeps its request waiting.
   */
  hold(where: (attempt: Attempt) => boolean): Hold {
    let arrived!: (attempt: Attempt) => void;
    const reached = new Promise<Attempt>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ where, arrived, released });
    return { reached, release };
  }

  private async waitIfHeld(attempt: Attempt): Promise<void> {
    const index = this.holds.findIndex((hold) => hold.where(attempt));
    if (index < 0) return;
    const [hold] = this.holds.splice(index, 1);
    hold!.arrived(attempt);
    await hold!.released;
  }

  /** Stops injecting (the middleware stays, passing everything through). */
  clear(): void {
    this.rules.length = 0;
    this.random = undefined;
    this.holds.length = 0;
  }

  uninstall(): void {
    this.clear();
    this.client.middlewareStack.remove(middlewareName);
  }

  /** The `answer` of the rule `decide` last picked, if it has one. */
  private decidedAnswer: (() => Error) | undefined;

  private answered(attempt: Attempt): Error {
    this.injected.push({ operation: attempt.operation, phase: 'before' });
    return this.decidedAnswer!();
  }

  private decide(attempt: Attempt): FaultPhase | undefined {
    this.decidedAnswer = undefined;
    for (const entry of this.rules) {
      const { rule } = entry;
      if (entry.left <= 0 || rule.operation !== attempt.operation || (rule.where && !rule.where(attempt))) continue;
      entry.left -= 1;
      if (rule.phase === 'before') this.decidedAnswer = rule.answer;
      return rule.phase;
    }
    const random = this.random;
    if (!random || (random.where && !random.where(attempt))) return undefined;
    if (random.next() >= random.rate) return undefined;
    return random.next() < 0.5 ? 'before' : 'after';
  }

  private record(attempt: Attempt, phase: FaultPhase): Error {
    this.injected.push({ operation: attempt.operation, phase });
    return faultError(phase, this.random ? this.random.next() : (this.injected.length % 3) / 3);
  }
}
