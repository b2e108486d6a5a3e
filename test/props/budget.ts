/**
 * Bounds for every property run: a count (scaled by PROPS_SCALE, default 1) and a wall-clock
 * limit (PROPS_TIME_MS, default 15 s) after which fast-check stops early and reports what it ran.
 * Each test's own timeout is above the limit, so a slow shared machine shortens a run, never
 * fails it for time.
 */
const scale = Number(process.env.PROPS_SCALE ?? 1);
const timeMs = Number(process.env.PROPS_TIME_MS ?? 15_000);

export const BUDGET = {
  runs: (n: number) => Math.max(1, Math.round(n * (Number.isFinite(scale) && scale > 0 ? scale : 1))),
  timeMs,
  /** vitest timeout for one property test: the limit plus room for set-up and reporting. */
  testTimeoutMs: timeMs * 2 + 10_000,
};

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
