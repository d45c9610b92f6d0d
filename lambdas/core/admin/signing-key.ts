/**
 * The signing key's age and next rotation on the overview (behaviour DASH-7). The key set lives in
 * a secret that only the signing routes and the rotation job may read (behaviour CUSTODY-1), so
 * the rotation job records, after each run, the kids and times of the set (never key material) in
 * an item the dashboard reads instead.
 */

/** What the rotation job records of the key set (lambdas/jobs/rotate-signing-keys.ts). */
export interface SigningKeyTimes {
  readonly currentKid: string;
  /** When the current key started signing. */
  readonly activatedAt: string;
  /** A key published beside the current one, waiting out the publication lead before it signs. */
  readonly pending?: { readonly kid: string; readonly publishedAt: string };
  /** Days a key signs before the next one is prepared (KEY_ROTATION_DAYS). */
  readonly rotateAfterDays: number;
  /** How long a new key is published before it may sign. */
  readonly publishLeadMs: number;
  /** When the run that recorded this ended. */
  readonly recordedAt: string;
}

export interface SigningKeyTimesReader {
  /** The newest record, or undefined before the rotation job's first run (and on the local server, which rotates nothing). */
  current(): Promise<SigningKeyTimes | undefined>;
}

export interface SigningKeyTimesRecorder {
  record(times: SigningKeyTimes): Promise<void>;
}

export interface SigningKeyStatus {
  readonly kid: string;
  readonly activatedAt: string;
  /** Whole days since activation. */
  readonly ageDays: number;
  /**
   * The next step: the next key is published (`prepare`, due when the current one is
   * `rotateAfterDays` old), or the published one starts signing (`activate`, once its lead is over);
   * either happens at the first daily run of the job from `due` on.
   */
  readonly next: { readonly step: 'prepare' | 'activate'; readonly due: string; readonly kid?: string };
  readonly recordedAt: string;
}

const dayMs = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

export function signingKeyStatus(times: SigningKeyTimes, now: number): SigningKeyStatus {
  const activated = Date.parse(times.activatedAt);
  const next = times.pending
    ? { step: 'activate' as const, due: iso(Date.parse(times.pending.publishedAt) + times.publishLeadMs), kid: times.pending.kid }
    : { step: 'prepare' as const, due: iso(activated + times.rotateAfterDays * dayMs) };
  return {
    kid: times.currentKid,
    activatedAt: times.activatedAt,
    ageDays: Math.max(0, Math.floor((now - activated) / dayMs)),
    next,
    recordedAt: times.recordedAt,
  };
}
