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
const order = Buffer.from(
  JSON.stringify({
    id: 'ord_bench_000000000001',
    resource_type: 'ENERGY',
    order_type: 'MARKET',
    status: 'PENDING',
    amount: 65_000,
    duration_sec: 3600,
    target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
    price_sun: 35,
    cost_trx: 2.275,
    created_at: '2026-11-20T00:00:00.000Z',
    fills: [],
  }),
);

const server = createServer((req, res) => {
  const body = req.method === 'POST' ? order : prices;
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
