import { randomBytes } from 'node:crypto';
import type { Clock, RandomSource } from '../core/ports';

export const systemClock: Clock = { now: () => Date.now() };
export const cryptoRandom: RandomSource = { bytes: (length) => new Uint8Array(randomBytes(length)) };
