// SDK call overhead: the account client against raw fetch, same server, same bytes, same
// headers, alternated call by call in rounds (lib.mjs `alternate`). The server runs in another
// process (bench/sdk-server.mjs, forked) so its work never lands on the client's event loop and
// the ratio measures the client alone.
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import ky from 'ky';
import { TrxRent } from '../dist/index.js';
import { PriceList } from '../dist/schemas/index.js';
import { alternate } from './lib.mjs';

const KEY = `sk_live_${'0'.repeat(64)}`;
const ORDER = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' };

function startServer() {
  const child = fork(new URL('./sdk-server.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    child.once('message', ({ port }) => resolve({ child, base: `http://127.0.0.1:${port}` }));
  });
}

export async function run() {
  const { child, base } = await startServer();
  try {
    const pricesUrl = `${base}/api/v1/prices`;
    const ordersUrl = `${base}/api/v1/orders`;
    const client = new TrxRent({ baseUrl: base, apiKey: KEY });
    const bare = ky.create({ retry: 0 });
    // What the SDK sends, by hand: same headers, same body, a fresh Idempotency-Key per call.
    const rawGet = async () => JSON.parse(await (await fetch(pricesUrl, { headers: { accept: 'application/json', 'x-api-key': KEY } })).text());
    const rawPost = async () =>
      JSON.parse(
        await (
          await fetch(ordersUrl, {
            method: 'POST',
            headers: { accept: 'application/json', 'x-api-key': KEY, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            body: JSON.stringify(ORDER),
          })
        ).text(),
      );

    // A long warm-up: the first block of a process measures the JIT's tiers, not the steady
    // state (in one process, four GET blocks in a row gave 1.079, 1.052, 1.054, 1.052x).
    const get = await alternate({ sdk: () => client.prices.list(), rawFetch: rawGet }, { rounds: 11, n: 300, warmup: 2000 });
    const post = await alternate({ sdk: () => client.orders.create(ORDER), rawFetch: rawPost }, { rounds: 11, n: 300, warmup: 2000 });
    // ky for reference only, apart: a third function in the same turns would slow the other two.
    const withKy = await alternate(
      { kyZod: async () => PriceList.parse(await bare.get(pricesUrl).json()), rawFetch: rawGet },
      { rounds: 5, n: 200, warmup: 200 },
    );
    // What the abort signal alone costs undici (the SDK passes one so a deadline closes its connection).
    const rawSignalGet = async () =>
      JSON.parse(await (await fetch(pricesUrl, { headers: { accept: 'application/json', 'x-api-key': KEY }, signal: new AbortController().signal })).text());
    const withSignal = await alternate({ rawSignal: rawSignalGet, rawFetch: rawGet }, { rounds: 5, n: 200, warmup: 200 });
    // An answer whose keys are not in the schema's order (zod parses both; a reference for
    // whether key order costs anything).
    const shuffledPost = () => client.orders.create(ORDER, { headers: { 'x-bench-keys': 'shuffled' } });
    const withZod = await alternate({ zodCopy: shuffledPost, sdk: () => client.orders.create(ORDER) }, { rounds: 5, n: 200, warmup: 200 });
    const getRatio = get.sdk / get.rawFetch;
    const postRatio = post.sdk / post.rawFetch;
    return {
      title: 'SDK call overhead (server in another process, loopback, median per call)',
      rows: [
        { name: 'GET client.prices.list()', value: get.sdk, unit: 'µs' },
        { name: 'GET raw fetch + JSON.parse', value: get.rawFetch, unit: 'µs' },
        { name: 'GET SDK vs raw fetch', value: get.sdk, baseline: get.rawFetch, unit: 'µs', ratio: getRatio, target: '<= 1.05x', ok: getRatio <= 1.05 },
        { name: 'POST client.orders.create()', value: post.sdk, unit: 'µs' },
        { name: 'POST raw fetch + JSON.parse', value: post.rawFetch, unit: 'µs' },
        { name: 'POST SDK vs raw fetch', value: post.sdk, baseline: post.rawFetch, unit: 'µs', ratio: postRatio, target: '<= 1.08x', ok: postRatio <= 1.08 },
        {
          name: 'GET raw fetch with an AbortSignal vs without (for reference)',
          value: withSignal.rawSignal,
          baseline: withSignal.rawFetch,
          unit: 'µs',
          ratio: withSignal.rawSignal / withSignal.rawFetch,
        },
        {
          name: 'POST answer in another key order (zod parses it) vs in the spec order (for reference)',
          value: withZod.zodCopy,
          baseline: withZod.sdk,
          unit: 'µs',
          ratio: withZod.zodCopy / withZod.sdk,
        },
        {
          name: 'GET bare ky + zod vs raw fetch (for reference)',
          value: withKy.kyZod,
          baseline: withKy.rawFetch,
          unit: 'µs',
          ratio: withKy.kyZod / withKy.rawFetch,
        },
      ],
    };
  } finally {
    child.removeAllListeners('exit');
    child.disconnect();
  }
}
