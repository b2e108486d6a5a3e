// Shared helpers for bench sections: interleaved runs so both sides see the same machine state.

/** Median of per-call durations (ms) of `fn`, run `n` times after `warmup` calls. */
export async function medianMs(fn, { n = 300, warmup = 50 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = new Array(n);
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times[i] = Number(process.hrtime.bigint() - t) / 1e6;
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

/**
 * Compare several async functions fairly: rounds alternate between them, and each reports the
 * median of its per-round medians.
 */
export async function compare(fns, { rounds = 5, n = 200, warmup = 50 } = {}) {
  const names = Object.keys(fns);
  const medians = Object.fromEntries(names.map((k) => [k, []]));
  for (const k of names) await medianMs(fns[k], { n: warmup, warmup: 0 });
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 ? [...names].reverse() : names) medians[k].push(await medianMs(fns[k], { n, warmup: 5 }));
  }
  return Object.fromEntries(names.map((k) => [k, median(medians[k])]));
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Compare async functions call by call: each round runs `n` turns, and every turn calls each
 * function once (order flipped every turn), so all of them see the same moment of a busy
 * machine; a function's figure is the median of its per-round medians (µs per call).
 * Finer than `compare`, whose blocks of `n` calls can each catch a different load.
 */
export async function alternate(fns, { rounds = 9, n = 300, warmup = 300 } = {}) {
  const names = Object.keys(fns);
  for (let i = 0; i < warmup; i++) for (const k of names) await fns[k]();
  const medians = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    const times = Object.fromEntries(names.map((k) => [k, new Array(n)]));
    for (let i = 0; i < n; i++) {
      for (const k of (i + r) % 2 ? names : [...names].reverse()) {
        const t = process.hrtime.bigint();
        await fns[k]();
        times[k][i] = Number(process.hrtime.bigint() - t) / 1e3;
      }
    }
    for (const k of names) medians[k].push(median(times[k]));
  }
  return Object.fromEntries(names.map((k) => [k, median(medians[k])]));
}
