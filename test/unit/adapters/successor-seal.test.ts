/**
 * The sealed successor of a refresh rotation's grace window (behaviour REFRESH-7): it opens only
 * with the rotated token it was sealed for, only in the item it was sealed into, and only unaltered.
 */
import { openSuccessor, sealSuccessor } from '../../../lambdas/adapters/dynamodb/successor-seal';

const rotated = 'rotated-refresh-token-0123456789abcdefghijklmnopq';
const successor = 'successor-refresh-token-0123456789abcdefghijklmn';
const item = 'RT#digest-of-the-rotated-token';

describe('behaviour REFRESH-7: the kept successor is sealed for the rotated token', () => {
  it('opens with the rotated token in its own item, and holds neither token in the clear', () => {
    const sealed = sealSuccessor(rotated, successor, item);
    expect(openSuccessor(rotated, sealed, item)).toBe(successor);
    expect(sealed).not.toContain(successor);
    expect(sealed).not.toContain(rotated);
    // A fresh IV each time: two seals of one successor differ.
    expect(sealSuccessor(rotated, successor, item)).not.toBe(sealed);
  });

  it('does not open with another token, in another item, altered or cut short', () => {
    const sealed = sealSuccessor(rotated, successor, item);
    expect(openSuccessor(successor, sealed, item)).toBeUndefined();
    expect(openSuccessor(rotated, sealed, 'RT#another')).toBeUndefined();
    const bytes = Buffer.from(sealed, 'base64url');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    expect(openSuccessor(rotated, bytes.toString('base64url'), item)).toBeUndefined();
    expect(openSuccessor(rotated, sealed.slice(0, 20), item)).toBeUndefined();
    expect(openSuccessor(rotated, '', item)).toBeUndefined();
  });
});
