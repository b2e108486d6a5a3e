// Flat under soak, in-process: 100k keyed POST /api/v1/orders through the mock's pipeline (no
// sockets, the manual clock advancing 20 ms a request so orders select, fill, verify and their
// rentals end as the run goes, retention 2 000), time per request over the last 10k against the
// first 10k. An O(n) step per request (a list walked, an array spliced) shows up as a ratio far
// above 1 long before 100k. test/mock/soak.test.ts runs the same load for what is not timed
// (every order placed once, retention, the books).
const TOTAL = 100_000;
const WINDOW = 10_000;
const RETAIN = 2_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

export async function run() {
  const mock = await import(new URL('../dist/mock/index.js', import.meta.url).href);
  // Warm-up on a world of its own, thrown away: the first window measures the soak, not the JIT.
  await soak(mock, WINDOW);
  return soak(mock, TOTAL);
}

async function soak({ ALL_ROUTES, PROVIDERS, createManualClock, createMockState, createPipeline }, total) {
  const state = createMockState({ clock: createManualClock(T0), seed: 7, retain: RETAIN, market: { offlineRate: 0 } });
  try {
    for (const p of PROVIDERS) state.setProviderOverride(p.id, { online: true, available_energy: 1_000_000_000_000 });
    const acct = state.createAccount({ trx_sun: 4_000_000_000_000_000 });
    const pipeline = createPipeline(state, ALL_ROUTES, { rateLimits: false });
    const body = JSON.stringify({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 300, target_address: TARGET });
    const times = new Float64Array(total);
    let failed = 0;
    for (let i = 0; i < total; i++) {
      const map = { 'x-api-key': acct.api_key, 'content-type': 'application/json', 'idempotency-key': `soak-${i}` };
      const headers = { get: (name) => map[name.toLowerCase()] ?? null, has: (name) => name.toLowerCase() in map };
      const started = performance.now();
      const res = await pipeline.handle({ method: 'POST', path: '/api/v1/orders', query: '', headers, body, ip: '127.0.0.1', origin: 'http://mock.test' });
      times[i] = performance.now() - started;
      if (res?.status !== 201) failed++;
      state.clock.advance(20);
    }
    const sum = (from, to) => times.subarray(from, to).reduce((a, b) => a + b, 0);
    const first = (sum(0, WINDOW) * 1000) / WINDOW;
    const last = (sum(total - WINDOW, total) * 1000) / WINDOW;
    const ratio = last / first;
    return {
      title: `Mock soak in-process: ${TOTAL / 1000}k keyed POST /api/v1/orders through the pipeline (manual clock, retention ${RETAIN})`,
      rows: [
        {
          name: `time per request, last ${WINDOW / 1000}k vs first ${WINDOW / 1000}k (kept ${state.orders.size} orders, ${state.idempotency.size} keys, ${state.chain.transactions.size} transactions${failed ? `; ${failed} not 201` : ''})`,
          value: last,
          unit: 'µs',
          baseline: first,
          ratio,
          target: '< 2x (flat)',
          ok: ratio < 2 && failed === 0,
        },
      ],
    };
  } finally {
    state.dispose();
  }
}
