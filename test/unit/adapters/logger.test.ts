import { createLogger } from '../../../lambdas/adapters/json-logger';
import { outputLines } from '../../support/output-lines';

describe('structured logs never carry secrets', () => {
  it('writes one JSON object per line and redacts credential-like fields at any depth', async () => {
    const log = createLogger('info', { service: 's' });
    const { lines } = await outputLines(async () => {
      log.info('exchange', {
        keyId: '0123456789abcdef',
        client_secret: 'shh',
        nested: { password: 'p', authorization: 'Bearer x', code: 'c', refresh_token: 'r' },
      });
      log.debug('not written at info level');
    });
    expect(lines).toHaveLength(1);
    const entry = lines[0]!;
    expect(entry).toMatchObject({
      level: 'info',
      message: 'exchange',
      service: 's',
      keyId: '0123456789abcdef',
      client_secret: '[redacted]',
    });
    expect(entry.nested).toEqual({ password: '[redacted]', authorization: '[redacted]', code: '[redacted]', refresh_token: '[redacted]' });
    expect(JSON.stringify(entry)).not.toMatch(/shh|Bearer x/);
  });

  it('adds the current request fields to every line, the line’s own fields winning (behaviour LOG-6)', async () => {
    let request: Record<string, unknown> = { requestId: 'r-1', route: 'POST /api/token' };
    const log = createLogger('debug', { service: 's' }, () => request);
    const { lines } = await outputLines(async () => {
      log.debug('first');
      request = { requestId: 'r-2' };
      log.warn('second', { requestId: 'own' });
    });
    expect(lines.map((l) => [l.message, l.level, l.requestId, l.route])).toEqual([
      ['first', 'debug', 'r-1', 'POST /api/token'],
      ['second', 'warn', 'own', undefined],
    ]);
  });

  it('writes nothing at all when silent', async () => {
    const log = createLogger('silent', { service: 's' });
    const { lines } = await outputLines(async () => log.error('not written'));
    expect(lines).toEqual([]);
  });
});
