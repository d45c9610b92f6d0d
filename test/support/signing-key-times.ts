/** The rotation job's record of the signing key's times (core/admin/signing-key.ts), written as the job writes it. */
import { DynamoSigningKeyTimes } from '../../lambdas/adapters/dynamodb/signing-key-times';
import type { SigningKeyTimes } from '../../lambdas/core/admin/signing-key';
import { getStorage } from '../../lambdas/wiring/storage';

export function recordSigningKeyTimes(times: SigningKeyTimes): Promise<void> {
  return new DynamoSigningKeyTimes(getStorage().db, getStorage().tables.main).record(times);
}
