import { createLogger } from '../../lambdas/adapters/json-logger';

describe('structured logs never carry secrets', () => {
  it('writes one JSON object per line and redacts credential-like fields at any depth', () => {
    const lines: string[] = [];
    const log = createLogger('info', { service: 's' }, (line) => lines.push(line));
    log.info('exchange', {
      keyId: '0123456789abcdef',
      client_secret: 'shh',
      nested: { password: 'p', authorization: 'Bearer x', code: 'c', refresh_token: 'r' },
    });
    log.debug('not written at info level');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 'info',
      message: 'exchange',
      service: 's',
      keyId: '0123456789abcdef',
      client_secret: '[redacted]',
    });
    expect(entry.nested).toEqual({ password: '[redacted]', authorization: '[redacted]', code: '[redacted]', refresh_token: '[redacted]' });
    expect(lines[0]).not.toMatch(/shh|Bearer x/);
  });
});
