// Stands in for src/http/deadline.ts in the ablation build: no deadline at all, so the run shows
// what the deadline queue costs a call. Never shipped.
import type { Deadline } from '../../src/http/deadline.js';

const never: Deadline = { cancel() {} };

/** Arms nothing. */
export function deadline(_ms: number, _fire: () => void): Deadline {
  return never;
}
export type { Deadline };
