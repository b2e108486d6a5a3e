// Mock server throughput: GET /api/v1/prices on the mock (msw handlers behind node:http, the
// full pipeline: route match, rate-limit bookkeeping off, market snapshot, JSON) against a bare
// node:http server answering the same bytes. Same client, same keep-alive agent, same
// concurrency, both on 127.0.0.1, rounds interleaved so both see the same machine state.
import { createServer, Agent, get } from 'node:http';
import { performance } from 'node:perf_hooks';

const CONCURRENCY = 32;
const ROUND_MS = 1_250; // x2 rounds = 2.5 s per side
const ROUNDS = 2;
const WARMUP_MS = 300;

function request(url, agent) {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
    }).on('error', reject);
  });
}

async function load(url, ms) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let count = 0;
  const end = performance.now() + ms;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < end) {
      await request(url, agent);
      count++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { count, seconds };
}

export async function run() {
  const { startMockServer } = await import(new URL('../dist/mock/index.js', import.meta.url).href);
  const mock = await startMockServer({ rateLimits: false, seed: 1 });
  const body = await (await fetch(`${mock.url}/api/v1/prices`)).text();
  const bare = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${bare.address().port}/api/v1/prices`;
  const mockUrl = `${mock.url}/api/v1/prices`;
  try {
    await load(mockUrl, WARMUP_MS);
    await load(bareUrl, WARMUP_MS);
    const totals = { mock: { count: 0, seconds: 0 }, bare: { count: 0, seconds: 0 } };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? ['bare', 'mock'] : ['mock', 'bare'];
      for (const side of order) {
        const { count, seconds } = await load(side === 'mock' ? mockUrl : bareUrl, ROUND_MS);
        totals[side].count += count;
        totals[side].seconds += seconds;
      }
    }
    const mockRps = totals.mock.count / totals.mock.seconds;
    const bareRps = totals.bare.count / totals.bare.seconds;
    return {
      title: `Mock server: GET /api/v1/prices, ${Buffer.byteLength(body)} B body, loopback, concurrency ${CONCURRENCY}`,
      rows: [
        { name: 'mock server (msw handlers on node:http)', value: mockRps, unit: 'req/s', baseline: bareRps, ratio: mockRps / bareRps },
        { name: 'bare node:http, same body', value: bareRps, unit: 'req/s' },
      ],
    };
  } finally {
    await mock.close();
    await new Promise((resolve) => bare.close(resolve));
  }
}
