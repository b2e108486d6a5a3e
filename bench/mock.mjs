// Mock server throughput: GET /api/v1/prices on the mock (msw handlers behind node:http, the
// full pipeline: route match, rate-limit bookkeeping off, market snapshot, JSON) against a bare
// node:http server answering the same bytes. The load comes from a second process (same
// client, keep-alive, concurrency for both), so each server has this process's core to itself;
// rounds are interleaved so both see the same machine state.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';

const CONCURRENCY = 32;
const ROUND_MS = 1_250; // x2 rounds = 2.5 s per side
const ROUNDS = 2;
const WARMUP_MS = 300;

// The load generator, run with `node -e` in its own process: prints { count, seconds }.
const LOADER = `
const { Agent, get } = require('node:http');
const [url, ms, concurrency] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3])];
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const request = () => new Promise((resolve, reject) => {
  get(url, { agent }, (res) => { res.resume(); res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('HTTP ' + res.statusCode)))); }).on('error', reject);
});
let count = 0;
const started = performance.now();
const end = started + ms;
Promise.all(Array.from({ length: concurrency }, async () => { while (performance.now() < end) { await request(); count++; } }))
  .then(() => { console.log(JSON.stringify({ count, seconds: (performance.now() - started) / 1000 })); agent.destroy(); });
`;

function load(url, ms) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', LOADER, url, String(ms), String(CONCURRENCY)], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout)),
    );
  });
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
