/** Behaviour ADMIN-3: an unknown id is `404 not_found` naming what was asked for (lambdas/core/admin/not-found.ts). */
import { found, noSuch } from '../../../lambdas/core/admin/not-found';
import { NotFoundError } from '../../../lambdas/core/errors';

describe('found: the record a read found, else the 404 naming it (behaviour ADMIN-3)', () => {
  it('answers the record itself', () => {
    const record = { id: 'usr_1' };
    expect(found(record, 'user', 'usr_1')).toBe(record);
  });

  it('throws 404 not_found naming the kind and the id for an absent record', () => {
    expect(() => found(undefined, 'environment', 'env_x')).toThrow(NotFoundError);
    expect(() => found(undefined, 'environment', 'env_x')).toThrow(
      expect.objectContaining({ status: 404, code: 'not_found', description: 'No environment "env_x".' }),
    );
  });

  it('noSuch is the same refusal, for a write that found nothing', () => {
    expect(noSuch('client', 'tgc_1')).toMatchObject({ status: 404, code: 'not_found', description: 'No client "tgc_1".' });
  });
});
