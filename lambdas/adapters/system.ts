import { randomBytes } from 'node:crypto';
import type { Clock, RandomSource } from '../core/ports';

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Each value's bytes straight from node:crypto's CSPRNG, in a buffer of its own per call
 * (randomBytes never hands out Node's shared allocation pool): nothing is kept between calls.
 */
export const cryptoRandom: RandomSource = { bytes: (length) => randomBytes(length) };
