import { randomFillSync } from 'node:crypto';
import type { Clock, RandomSource } from '../core/ports';

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Random bytes are drawn from the CSPRNG in 4 KiB batches and handed out once each, as
 * node:crypto's randomUUID does with its own cache: a token request takes a few ids, and a
 * call into the CSPRNG per id cost more than the rest of the id's work (~20 µs of CPU per
 * token request in a node --cpu-prof of the token handler). Each byte is given out once
 * and copied out, never shared.
 */
const batch = Buffer.alloc(4096);
let offset = batch.length;

export const cryptoRandom: RandomSource = {
  bytes: (length) => {
    if (length > batch.length) return new Uint8Array(randomFillSync(Buffer.alloc(length)));
    if (offset + length > batch.length) {
      randomFillSync(batch);
      offset = 0;
    }
    const out = new Uint8Array(batch.subarray(offset, offset + length));
    batch.fill(0, offset, offset + length);
    offset += length;
    return out;
  },
};
