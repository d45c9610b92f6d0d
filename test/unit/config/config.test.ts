import { ConfigError, loadConfig, parseSettings } from '../../../lambdas/config/settings';

const base = {
  BASE_URL: 'https://auth.example.com/',
  JWKS_CDN_BASE_URL: 'https://d123.cloudfront.net',
  MAIL_FROM: 'no-reply@example.com',
};

function problemsOf(env: Record<string, string | undefined>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('settings (behaviour CONFIG-2)', () => {
  it('applies the documented defaults: DCR cap 10, OTP attempts 5, Argon2id, RS256', () => {
    const config = loadConfig({ ...base, DCR_ENVIRONMENT_ID: 'env_1' });
    expect(config.dcr.rateLimitPerDay).toBe(10);
    expect(config.mfaOtpMaxAttempts).toBe(5);
    expect(config.hashMethod).toBe('argon2id');
    expect(config.signingAlg).toBe('RS256');
  });

  it('behaviour CONFIG-4: Client ID Metadata Documents are on by default, given the DCR environment they need', () => {
    expect(loadConfig({ ...base, DCR_ENVIRONMENT_ID: 'env_1' }).clientIdMetadataDocuments).toBe(true);
    expect(loadConfig({ ...base, DCR_ENVIRONMENT_ID: 'env_1', CLIENT_ID_METADATA_DOCUMENTS: 'false' }).clientIdMetadataDocuments).toBe(
      false,
    );
    expect(loadConfig(base).clientIdMetadataDocuments).toBe(false);
  });

  it('strips the trailing slash of the issuer and derives jwks_uri from JWKS_CDN_BASE_URL', () => {
    const config = loadConfig(base);
    expect(config.baseUrl).toBe('https://auth.example.com');
    expect(config.jwksUri).toBe('https://d123.cloudfront.net/jwks.json');
  });

  it.each([
    [{ DCR_ENVIRONMENT_ID: 'env_1' }, true],
    [{ DCR_ENVIRONMENT_ID: 'env_1', DCR_ENABLED: 'true' }, true],
    [{ DCR_ENVIRONMENT_ID: 'env_1', DCR_ENABLED: 'false' }, false],
    [{ DCR_ENABLED: 'true' }, false],
    [{ DCR_ENVIRONMENT_ID: '' }, false],
  ])('behaviour CONFIG-3: DCR enablement for %j is %s', (dcr, enabled) => {
    expect(loadConfig({ ...base, ...dcr }).dcr.enabled).toBe(enabled);
  });

  it('names the variable and the accepted values for an invalid value', () => {
    expect(problemsOf({ ...base, DCR_ENABLED: 'yes' })).toEqual(['DCR_ENABLED must be "true" or "false" (got "yes")']);
    expect(problemsOf({ ...base, HASH_METHOD: 'md5' })[0]).toMatch(/^HASH_METHOD must be "argon2id" or "argon2id-fast"/);
    expect(problemsOf({ ...base, DCR_RATE_LIMIT_PER_DAY: '0' })[0]).toMatch(/^DCR_RATE_LIMIT_PER_DAY must be a whole number/);
    expect(problemsOf({ ...base, MFA_OTP_MAX_ATTEMPTS: '2.5' })[0]).toMatch(/^MFA_OTP_MAX_ATTEMPTS/);
  });

  it('reports every problem at once, including missing required settings', () => {
    const problems = problemsOf({ DCR_ENABLED: 'maybe' });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['BASE_URL', 'JWKS_CDN_BASE_URL', 'MAIL_FROM', 'DCR_ENABLED']);
    expect(problems[0]).toContain('it is not set');
  });

  it.each(['http://auth.example.com', 'https://auth.example.com/?x=1', 'https://auth.example.com/#f', 'not a url'])(
    'refuses %s as issuer: https only (http on loopback), no query or fragment',
    (url) => {
      expect(problemsOf({ ...base, BASE_URL: url })[0]).toMatch(/^BASE_URL must be an https URL/);
    },
  );

  it('accepts http on a loopback host for local runs', () => {
    expect(loadConfig({ ...base, BASE_URL: 'http://localhost:3000' }).baseUrl).toBe('http://localhost:3000');
    expect(loadConfig({ ...base, BASE_URL: 'http://127.0.0.1:3000' }).baseUrl).toBe('http://127.0.0.1:3000');
  });

  it('behaviour REFRESH-7: REFRESH_GRACE_SECONDS is off (0) by default, 0 to 300 seconds when set', () => {
    expect(loadConfig(base).refreshGraceSeconds).toBe(0);
    expect(loadConfig({ ...base, REFRESH_GRACE_SECONDS: '30' }).refreshGraceSeconds).toBe(30);
    expect(loadConfig({ ...base, REFRESH_GRACE_SECONDS: '300' }).refreshGraceSeconds).toBe(300);
    for (const wrong of ['301', '-1', '1.5', 'soon']) {
      expect(problemsOf({ ...base, REFRESH_GRACE_SECONDS: wrong })).toEqual([
        `REFRESH_GRACE_SECONDS must be a whole number of seconds from 0 to 300 (got "${wrong}")`,
      ]);
    }
  });

  it('parses a subset of settings for callers that need only some (the CDK app)', () => {
    expect(parseSettings({ DCR_RATE_LIMIT_PER_DAY: '25' }, ['DCR_RATE_LIMIT_PER_DAY'])).toEqual({ DCR_RATE_LIMIT_PER_DAY: 25 });
  });
});
