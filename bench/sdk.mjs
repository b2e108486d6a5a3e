// SDK call vs bare ky + zod vs raw fetch, same loopback server and body, interleaved rounds.
import { createServer } from 'node:http';
import ky from 'ky';
import { TrxRent } from '../dist/index.js';
import { PriceList } from '../dist/schemas/index.js';
import { compare } from './lib.mjs';

const providers = ['catfee', 'netts', 'tronsave', 'itrx', 'powersun', 'tem'];
const body = JSON.stringify(
  providers.map((provider, i) => ({
    provider,
    is_market: i % 2 === 0,
    energy_prices: [3600, 86400, 259200].map((duration_sec, j) => ({ duration_sec, price_sun: 30 + i + j * 5 })),
    bandwidth_prices: i < 3 ? [{ duration_sec: 3600, price_sun: 500 + i }] : [],
    available_energy: 5_000_000 - i * 1000,
    available_bandwidth: i < 3 ? 100_000 : 0,
    fetched_at: '2026-11-20T00:00:00.000Z',
  })),
);

export async function run() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const url = `${base}/api/v1/prices`;
  const client = new TrxRent({ baseUrl: base, apiKey: `sk_live_${'0'.repeat(64)}` });
  const bare = ky.create({ retry: 0 });

  const m = await compare(
    {
      sdk: () => client.prices.list(),
      kyZod: async () => PriceList.parse(await bare.get(url).json()),
      rawFetch: async () => JSON.parse(await (await fetch(url)).text()),
    },
    { rounds: 7, n: 300, warmup: 200 },
  );
  server.closeAllConnections();
  server.close();
  const vsKy = m.sdk / m.kyZod;
  const vsRaw = m.sdk / m.rawFetch;
  return {
    title: 'SDK call overhead (GET /api/v1/prices, loopback, median per call)',
    rows: [
      { name: 'client.prices.list()', value: m.sdk * 1000, unit: 'µs' },
      { name: 'bare ky + zod parse', value: m.kyZod * 1000, unit: 'µs' },
      { name: 'raw fetch + JSON.parse', value: m.rawFetch * 1000, unit: 'µs' },
      { name: 'SDK vs bare ky + zod', value: m.sdk * 1000, baseline: m.kyZod * 1000, unit: 'µs', ratio: vsKy, target: '<= 1.10x', ok: vsKy <= 1.1 },
      { name: 'SDK vs raw fetch', value: m.sdk * 1000, baseline: m.rawFetch * 1000, unit: 'µs', ratio: vsRaw, target: '<= 1.60x', ok: vsRaw <= 1.6 },
      { name: 'bare ky + zod vs raw fetch (for reference)', value: m.kyZod * 1000, baseline: m.rawFetch * 1000, unit: 'µs', ratio: m.kyZod / m.rawFetch },
    ],
  };
}
