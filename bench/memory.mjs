// Heap growth while walking 50,000 orders with `for await` (pages of 100 from a loopback server).
import { createServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TrxRent } from '../dist/index.js';

const TOTAL = 50_000;

export async function run() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 30);
    const orders = [];
    for (let i = offset; i < Math.min(TOTAL, offset + limit); i++) {
      orders.push({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        status: 'FILLED',
        resource_type: 'ENERGY',
        order_type: 'MARKET',
        amount: 65000,
        duration_sec: 3600,
        target_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        max_price_sun: null,
        created_at: '2026-11-20T00:00:00.000Z',
        filled_at: '2026-11-20T00:00:02.000Z',
      });
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ orders, total: TOTAL }));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const client = new TrxRent({ baseUrl: `http://127.0.0.1:${server.address().port}`, apiKey: `sk_live_${'0'.repeat(64)}` });
  // A collected heap as the baseline (without --expose-gc the earlier sections' garbage counted as
  // the baseline, and growth could read 0).
  setFlagsFromString('--expose-gc');
  const gc = globalThis.gc ?? runInNewContext('gc');
  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let count = 0;
  const started = performance.now();
  for await (const order of client.orders.list({ limit: 100 })) {
    if (order.amount !== 65000) throw new Error('bad order');
    if (++count % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  }
  const seconds = (performance.now() - started) / 1000;
  server.closeAllConnections();
  server.close();
  if (count !== TOTAL) throw new Error(`iterated ${count} of ${TOTAL}`);
  const growthMb = (peak - before) / 1024 / 1024;
  return {
    title: `Memory while iterating ${TOTAL.toLocaleString('en')} orders with for await (limit 100/page)`,
    rows: [
      { name: 'peak heap growth', value: growthMb, unit: 'MB', target: '< 50 MB', ok: growthMb < 50 },
      { name: 'orders per second', value: count / seconds, unit: 'orders/s' },
    ],
  };
}
