// Mock server throughput against a bare node:http server answering the same bytes, measured with
// autocannon (a load generator that drives a bare server to its real rate) in its own process,
// so each server has this process's core to itself. Rounds alternate which side goes first.
//   GET /api/v1/prices  - route match, market snapshot (cached JSON), headers
//   POST /api/v1/orders - auth, body parse + zod validation, balance lock, order engine, JSON
//   soak                - 60 s of POST /api/v1/orders, each with its own Idempotency-Key (autocannon's
//                         [<id>] replacement): requests/s over the last 10 s against the first 10 s
//                         (flat: >= 0.8x), and the server's RSS at the end (retention bounds it)
// Rate limits are off (autocannon sends thousands of requests a second).
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { toolResolve } from '../scripts/lib/tools.mjs';

// autocannon is installed on demand (scripts/tools/autocannon), not a devDependency.
const AUTOCANNON_PATH = toolResolve('autocannon', 'autocannon');

export const CONNECTIONS = 32;
const ROUND_S = 2;
const ROUNDS = 2;

// The load generator, run with `node -e` in its own process: prints autocannon's summary.
const LOADER = `
const autocannon = require(process.env.AUTOCANNON_PATH);
const [url, seconds, connections, method, body, headers] = process.argv.slice(1);
autocannon({ url, duration: Number(seconds), connections: Number(connections), method, body: body || undefined, headers: JSON.parse(headers) }, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  console.log(JSON.stringify({ rps: result.requests.average, total: result.requests.total, non2xx: result.non2xx, errors: result.errors, seconds: result.duration }));
});
`;

// The soak loader: per-second counts from autocannon's 'tick' events.
const SOAK_LOADER = `
const autocannon = require(process.env.AUTOCANNON_PATH);
const [url, seconds, connections, body, headers] = process.argv.slice(1);
const ticks = [];
const instance = autocannon({ url, duration: Number(seconds), connections: Number(connections), method: 'POST', body, headers: JSON.parse(headers), idReplacement: true }, (error, result) => {
  if (error) { console.error(error); process.exit(1); }
  // Stopping, autocannon emits one more 'tick' after resetting its counter to 0 (lib/run.js,
  // tickInterval): not a second of the run. Counted, it put a 0 into the last window (-10%).
  if (ticks.length > Number(seconds) && ticks[ticks.length - 1] === 0) ticks.pop();
  console.log(JSON.stringify({ ticks, total: result.requests.total, non2xx: result.non2xx, errors: result.errors }));
});
instance.on('tick', ({ counter }) => ticks.push(counter));
`;
const SOAK_S = 60;
const WINDOW_S = 10;

function soakLoad(url, body, headers) {
  const args = ['-e', SOAK_LOADER, url, String(SOAK_S), String(CONNECTIONS), body, JSON.stringify(headers)];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: new URL('..', import.meta.url).pathname, maxBuffer: 1 << 20, env: { ...process.env, AUTOCANNON_PATH } },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

/** One autocannon run against `target` in its own process: { rps, total, non2xx, errors, seconds }. */
export function load(target, seconds) {
  const args = ['-e', LOADER, target.url, String(seconds), String(CONNECTIONS), target.method, target.body ?? '', JSON.stringify(target.headers ?? {})];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: new URL('..', import.meta.url).pathname, maxBuffer: 1 << 20, env: { ...process.env, AUTOCANNON_PATH } },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

async function bareServer(status, body) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

// The orders a mock round placed are still being worked on after it (selection at +0.3 s, fill
// at +1 s, verification at +4 s), in this process, on the thread the bare server runs on: a bare
// round right after a mock round was measured while the mock's work ran beside it. Before each
// bare round, wait (bounded) until the mock has nothing due during that round.
async function settle(state) {
  const horizon = (ROUND_S + 1) * 1000;
  for (let waited = 0; waited < 10_000; waited += 100) {
    const next = state.scheduler.peek();
    if (next === undefined || next > state.now() + horizon) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function compare(mockTarget, bareTarget, state) {
  await load(mockTarget, 1);
  await settle(state);
  await load(bareTarget, 1);
  const totals = { mock: { rps: 0, non2xx: 0, errors: 0 }, bare: { rps: 0, non2xx: 0, errors: 0 } };
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 ? ['bare', 'mock'] : ['mock', 'bare']) {
      if (side === 'bare') await settle(state);
      const result = await load(side === 'mock' ? mockTarget : bareTarget, ROUND_S);
      totals[side].rps += result.rps / ROUNDS;
      totals[side].non2xx += result.non2xx;
      totals[side].errors += result.errors;
    }
  }
  return totals;
}

export async function run() {
  const { startMockServer, PROVIDERS } = await import(new URL('../dist/mock/index.js', import.meta.url).href);
  // Enough money and supply that every order in the run is placed (201), as a real load test would arrange.
  let mock = await startMockServer({ rateLimits: false, seed: 1, demoBalance: { trx_sun: 4_000_000_000_000_000 }, market: { offlineRate: 0 } });
  for (const p of PROVIDERS) mock.state.setProviderOverride(p.id, { online: true, available_energy: 1_000_000_000_000 });
  const headers = { 'x-api-key': mock.apiKey, 'content-type': 'application/json' };
  const orderBody = JSON.stringify({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' });
  const pricesBody = await (await fetch(`${mock.url}/api/v1/prices`)).text();
  const orderRes = await fetch(`${mock.url}/api/v1/orders`, { method: 'POST', headers, body: orderBody });
  const orderText = await orderRes.text();
  const barePrices = await bareServer(200, pricesBody);
  const bareOrders = await bareServer(orderRes.status, orderText);
  try {
    const get = await compare({ url: `${mock.url}/api/v1/prices`, method: 'GET' }, { url: `${barePrices.url}/api/v1/prices`, method: 'GET' }, mock.state);
    const post = await compare(
      { url: `${mock.url}/api/v1/orders`, method: 'POST', body: orderBody, headers },
      { url: `${bareOrders.url}/api/v1/orders`, method: 'POST', body: orderBody, headers },
      mock.state,
    );
    const note = (t) => (t.non2xx || t.errors ? ` (${t.non2xx} non-2xx, ${t.errors} errors)` : '');
    // Soak: a fresh server (default retention), unique keys, 60 s; the servers above are closed first,
    // and the first mock's world let go (the variable kept its 10 000 orders and 50 000 chain
    // transactions alive through the soak, inside the RSS measured below).
    await mock.close();
    mock = undefined;
    const soakMock = await startMockServer({ rateLimits: false, seed: 2, demoBalance: { trx_sun: 4_000_000_000_000_000 }, market: { offlineRate: 0 } });
    let soak;
    try {
      for (const p of PROVIDERS) soakMock.state.setProviderOverride(p.id, { online: true, available_energy: 1_000_000_000_000 });
      const rssBefore = process.memoryUsage().rss;
      let half;
      const sampler = setTimeout(() => (half = process.memoryUsage()), (SOAK_S / 2) * 1000);
      const run = await soakLoad(`${soakMock.url}/api/v1/orders`, orderBody, { ...headers, 'x-api-key': soakMock.apiKey, 'idempotency-key': 'soak-[<id>]' });
      const avg = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const first = avg(run.ticks.slice(0, WINDOW_S));
      const last = avg(run.ticks.slice(-WINDOW_S));
      clearTimeout(sampler);
      const end = process.memoryUsage();
      soak = {
        first,
        last,
        total: run.total,
        non2xx: run.non2xx,
        errors: run.errors,
        rssBefore,
        rssHalf: half?.rss ?? NaN,
        heapHalf: half?.heapUsed ?? NaN,
        rss: end.rss,
        heap: end.heapUsed,
        orders: soakMock.state.orders.size,
        keys: soakMock.state.idempotency.size,
      };
    } finally {
      await soakMock.close();
    }
    return {
      title: `Mock server vs bare node:http, same bytes, autocannon in another process, ${CONNECTIONS} connections, ${ROUNDS}x${ROUND_S} s per side`,
      rows: [
        {
          name: `GET /api/v1/prices (${Buffer.byteLength(pricesBody)} B)${note(get.mock)}`,
          value: get.mock.rps,
          unit: 'req/s',
          baseline: get.bare.rps,
          ratio: get.mock.rps / get.bare.rps,
          target: '>= 0.6x',
          ok: get.mock.rps / get.bare.rps >= 0.6,
        },
        {
          name: `POST /api/v1/orders (${Buffer.byteLength(orderText)} B)${note(post.mock)}`,
          value: post.mock.rps,
          unit: 'req/s',
          baseline: post.bare.rps,
          ratio: post.mock.rps / post.bare.rps,
          target: '>= 0.35x',
          ok: post.mock.rps / post.bare.rps >= 0.35,
        },
        {
          name: `soak: keyed POST /api/v1/orders ${SOAK_S} s, last ${WINDOW_S} s vs first ${WINDOW_S} s (${soak.total} requests${soak.non2xx || soak.errors ? `, ${soak.non2xx} non-2xx, ${soak.errors} errors` : ''}; kept ${soak.orders} orders, ${soak.keys} keys)`,
          value: soak.last,
          unit: 'req/s',
          baseline: soak.first,
          ratio: soak.last / soak.first,
          target: '>= 0.8x',
          ok: soak.last / soak.first >= 0.8,
        },
        {
          name: `soak: RSS at the end vs at ${SOAK_S / 2} s (bench process; before the soak ${(soak.rssBefore / 2 ** 20).toFixed(0)} MB; heap ${(soak.heapHalf / 2 ** 20).toFixed(0)} -> ${(soak.heap / 2 ** 20).toFixed(0)} MB)`,
          value: soak.rss / 2 ** 20,
          unit: 'MB',
          baseline: soak.rssHalf / 2 ** 20,
          ratio: soak.rss / soak.rssHalf,
          target: 'bounded: <= 1.25x',
          ok: soak.rss / soak.rssHalf <= 1.25,
        },
      ],
    };
  } finally {
    await mock?.close();
    await barePrices.close();
    await bareOrders.close();
  }
}
