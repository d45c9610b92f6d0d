/**
 * The one activity row of a token request (spec 2.7, 6): filled in as the request learns
 * who it is for, then written inside the issuance write on success, or alone on failure.
 */
import type { ActivityRow, Client } from '../model';
import type { Clock } from '../ports';

export class TokenRequestActivity {
  requestType: ActivityRow['requestType'] = 'unknown';
  clientId?: string;
  environmentId?: string;
  userId?: string;
  /** The presented API key's id (key exchanges), known or not: the activity log names it. */
  apiKeyId?: string;

  constructor(
    private readonly ip: string,
    private readonly clock: Clock,
    private readonly startedAt = clock.now(),
  ) {}

  /** Called once the client record is found, even before its secret is checked. */
  forClient(client: Pick<Client, 'clientId' | 'environmentId'>): void {
    this.clientId = client.clientId;
    this.environmentId = client.environmentId;
  }

  row(success: boolean, reason?: string): ActivityRow {
    const now = this.clock.now();
    return {
      requestType: this.requestType,
      ...(this.clientId ? { clientId: this.clientId } : {}),
      ...(this.environmentId ? { environmentId: this.environmentId } : {}),
      ...(this.userId ? { userId: this.userId } : {}),
      ...(this.apiKeyId ? { apiKeyId: this.apiKeyId } : {}),
      ip: this.ip,
      success,
      ...(reason ? { reason } : {}),
      durationMs: Math.max(0, Math.round(now - this.startedAt)),
      at: new Date(now).toISOString(),
    };
  }
}
