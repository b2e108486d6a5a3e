// The SDK bench's server, in its own process (forked by bench/sdk.mjs) so its work never shares
// the client's event loop: node:http answering fixed JSON bytes, nothing else. It tells the
// parent its port over IPC and exits when the parent disconnects.
import { createServer } from 'node:http';

const providers = ['catfee', 'netts', 'tronsave', 'itrx', 'powersun', 'tem'];
const prices = Buffer.from(
  JSON.stringify(
    providers.map((provider, i) => ({
      provider,
      is_market: i % 2 === 0,
      energy_prices: [3600, 86400, 259200].map((duration_sec, j) => ({ duration_sec, price_sun: 30 + i + j * 5 })),
      bandwidth_prices: i < 3 ? [{ duration_sec: 3600, price_sun: 500 + i }] : [],
      available_energy: 5_000_000 - i * 1000,
      available_bandwidth: i < 3 ? 100_000 : 0,
      fetched_at: '2026-11-20T00:00:00.000Z',
    })),
  ),
);
// POST /orders answers the spec's create shape, in the order of the spec's Order table (what the
// reference mock sends). With `x-bench-keys: shuffled` the same fields come in another order, for
// the bench's reference row (zod copies either order; the row shows whether order matters).
const created = {
  id: '3f2b8c1e-7d4a-4e59-9b0c-2a6d8e1f5c47',
  status: 'PENDING',
  resource_type: 'ENERGY',
  order_type: 'MARKET',
  amount: 65_000,
  duration_sec: 3600,
  target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
  max_price_sun: null,
  created_at: '2026-11-20T00:00:00.000Z',
};
const order = Buffer.from(JSON.stringify(created));
const shuffled = Buffer.from(JSON.stringify(Object.fromEntries(Object.entries(created).reverse())));

const server = createServer((req, res) => {
  const body = req.method === 'POST' ? (req.headers['x-bench-keys'] === 'shuffled' ? shuffled : order) : prices;
  const status = req.method === 'POST' ? 201 : 200;
  // Drain the request body before answering, as any real server would.
  req.resume();
  req.on('end', () => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('disconnect', () => {
  server.closeAllConnections();
  server.close();
  process.exit(0);
});
