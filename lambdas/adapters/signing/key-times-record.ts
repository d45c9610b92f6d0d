/**
 * What the rotation job records of the key set it leaves (core/admin/signing-key.ts): kids and
 * times only, so the dashboard can show the key's age and next rotation without a grant on the
 * secret (behaviour CUSTODY-1, DASH-7).
 */
import type { SigningKeyTimes } from '../../core/admin/signing-key';
import type { RotatingKeySet, RotationPolicy } from './rotation';

export function keyTimesRecordOf(set: RotatingKeySet, policy: RotationPolicy, rotateAfterDays: number, now: number): SigningKeyTimes {
  const iso = new Date(now).toISOString();
  const pending = set.keys.find((key) => key.kid !== set.currentKid && set.keyTimes[key.kid!]?.activatedAt === undefined);
  const pendingPublishedAt = pending ? set.keyTimes[pending.kid!]?.publishedAt : undefined;
  return {
    currentKid: set.currentKid,
    // planRotation records the activation of a current key that lacked one, so this is set after any run.
    activatedAt: set.keyTimes[set.currentKid]?.activatedAt ?? iso,
    ...(pending && pendingPublishedAt ? { pending: { kid: pending.kid!, publishedAt: pendingPublishedAt } } : {}),
    rotateAfterDays,
    publishLeadMs: policy.publishLeadMs,
    recordedAt: iso,
  };
}
