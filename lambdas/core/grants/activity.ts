/**
 * The one activity row of a token request (behaviour LOG-1, LOG-2). Each step tells it what it learned
 * about the attempt (its type, client, user, key) through the methods below; the row is then
 * written inside the issuance write on success, or alone on failure.
 */
import { newId } from '../ids';
import type { ActivityRow, Client } from '../model';
import type { Clock, RandomSource } from '../ports';

export class TokenRequestActivity {
  private type: ActivityRow['requestType'] = 'unknown';
  private clientId?: string;
  private environmentId?: string;
  private userId?: string;
  /** The presented API key's id (key exchanges), known or not: the activity log names it. */
  private apiKeyId?: string;

  /**
   * Names this attempt's row in storage: a success row that landed before its request failed
   * (a batch write half done, a timeout after the write) is overwritten by the failure row,
   * so an attempt never leaves two rows.
   */
  private readonly attemptId: string;
  private readonly startedAt: number;

  constructor(
    private readonly ip: string,
    private readonly clock: Clock,
    random: RandomSource,
    /** Told the client id as soon as it is known (the handler labels the request's log lines with it). */
    private readonly onClientKnown: (clientId: string) => void = () => undefined,
  ) {
    this.startedAt = clock.now();
    this.attemptId = newId('', random);
  }

  ofType(requestType: ActivityRow['requestType']): void {
    this.type = requestType;
  }

  /** What the attempt asked for, as far as it is known (`unknown` until the grant type is read). */
  get requestType(): ActivityRow['requestType'] {
    return this.type;
  }

  /** Called once the client record is found, even before its secret is checked. */
  forClient(client: Pick<Client, 'clientId' | 'environmentId'>): void {
    this.clientId = client.clientId;
    this.environmentId = client.environmentId;
    this.onClientKnown(client.clientId);
  }

  /** The client as far as it is known (an API key names its client before the client is read). */
  forClientId(clientId: string): void {
    this.clientId = clientId;
    this.onClientKnown(clientId);
  }

  forUser(userId: string): void {
    this.userId = userId;
  }

  /** The presented key's id, whether or not such a key exists. */
  forKey(apiKeyId: string): void {
    this.apiKeyId = apiKeyId;
  }

  row(success: boolean, reason?: string): ActivityRow {
    const now = this.clock.now();
    return {
      requestType: this.type,
      ...(this.clientId ? { clientId: this.clientId } : {}),
      ...(this.environmentId ? { environmentId: this.environmentId } : {}),
      ...(this.userId ? { userId: this.userId } : {}),
      ...(this.apiKeyId ? { apiKeyId: this.apiKeyId } : {}),
      ip: this.ip,
      success,
      ...(reason ? { reason } : {}),
      durationMs: Math.max(0, Math.round(now - this.startedAt)),
      startedAt: new Date(this.startedAt).toISOString(),
      attemptId: this.attemptId,
      at: new Date(now).toISOString(),
    };
  }
}
