import type { SendRateDecision, SendRatePolicy } from './ports';

/** Behaviour MFA-8. Sign-in codes: one per password sign-in, ten an hour; a resend waits a minute. */
export const signInCodeRate: SendRatePolicy = { minIntervalSeconds: 0, perHour: 10 };
export const signInCodeResendRate: SendRatePolicy = { minIntervalSeconds: 60, perHour: 10 };
/** Behaviour VERIFY-3, RESET-2: one a minute, five an hour. */
export const verificationCodeRate: SendRatePolicy = { minIntervalSeconds: 60, perHour: 5 };
export const passwordResetRate: SendRatePolicy = { minIntervalSeconds: 60, perHour: 5 };

/** Pure: the decision for a history of send times (epoch seconds). */
export function decideSend(history: readonly number[], policy: SendRatePolicy, nowEpoch: number): SendRateDecision {
  const recent = history.filter((at) => at > nowEpoch - 3600).sort((a, b) => a - b);
  const last = recent[recent.length - 1];
  if (last !== undefined && nowEpoch - last < policy.minIntervalSeconds) {
    return { allowed: false, retryAfterSeconds: policy.minIntervalSeconds - (nowEpoch - last) };
  }
  if (recent.length >= policy.perHour)
    return { allowed: false, retryAfterSeconds: recent[recent.length - policy.perHour]! + 3600 - nowEpoch };
  return { allowed: true };
}
