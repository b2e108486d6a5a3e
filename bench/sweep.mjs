// Sweeps: 1,000 USDT deposit addresses (a third never activated, a fifth below the minimum) swept
// into one treasury on the mock's manual clock (the SDK on `virtualClock` over it: order fills and
// polls take mock time, not wall time), a JSON-lines journal on disk. Reports the orders filled
// (the mock's order log: one per source, an order has one target), the activations, what the
// sweep cost against burning TRX at each source (activation included in both), the wall time and
// the mock-clock time. `node bench/run.mjs sweep` runs this section alone.
import { createHash } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { TrxRent, toTronAddress, trxToSun, virtualClock } from '../dist/index.js';
import { createManualClock, startMockServer } from '../dist/mock/index.js';

const SOURCES = Number(process.env.SWEEP_BENCH_SOURCES ?? 1_000);

function addressOf(privateKey) {
  const pub = secp256k1.getPublicKey(hexToBytes(privateKey), false).slice(1);
  return toTronAddress(`41${bytesToHex(keccak_256(pub)).slice(-40)}`);
}

const keyOf = (tag) => createHash('sha256').update(`sweep bench ${tag}`).digest('hex');

export async function run() {
  const mock = await startMockServer({ seed: 4141, clock: createManualClock(Date.UTC(2026, 11, 1)), rateLimits: false });
  try {
    const chain = mock.state.chain;
    const usdt = chain.token('USDT');
    const sources = Array.from({ length: SOURCES }, (_, i) => {
      const privateKey = keyOf(i);
      const address = addressOf(privateKey);
      const atomic = i % 5 === 4 ? 500_000n : BigInt(10_000_000 + ((i * 7_919) % 5_000) * 1_000_000);
      chain.syntheticTransfer({ token: usdt, to: address, amount: atomic, label: `bench deposit ${i}` });
      if (i % 3 !== 0) chain.fundTrx(address, 1_000_000n);
      return { privateKey, address };
    });
    const fundKey = keyOf('funding');
    chain.fundTrx(addressOf(fundKey), 10_000_000_000n);
    const to = toTronAddress(`41${createHash('sha256').update('bench treasury').digest('hex').slice(0, 40)}`);
    chain.syntheticTransfer({ token: usdt, to, amount: 1n, label: 'bench treasury' });
    const account = mock.state.createAccount({ trx_sun: trxToSun('10000000') });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: account.api_key, tronNode: mock.url, clock: virtualClock(mock.state.clock), timeoutMs: 10_000 });
    const journal = join(mkdtempSync(join(tmpdir(), 'bench-sweep-')), 'sweep.journal');
    let plan;
    const mockStart = mock.state.now();
    const started = performance.now();
    const report = await client.transfers.sweep(sources, {
      to,
      min: '10',
      funding: { privateKey: fundKey },
      journal,
      concurrency: 32,
      onEvent: (e) => e.event === 'planned' && (plan = e.plan),
    });
    const ms = performance.now() - started;
    const mockMs = mock.state.now() - mockStart;
    const orders = mock.state.orders.all(account.account_id);
    const trx = (sun) => Number(sun) / 1e6;
    const swept = [...chain.transactions.values()].filter((t) => t.transfer?.to === to && t.tx.signature?.length);
    const burnt = swept.reduce((s, t) => s + (t.energyFeeSun ?? 0) + (t.netFeeSun ?? 0), 0);
    return {
      title: `Sweeps: ${SOURCES} USDT deposit addresses into one treasury (mock clock, journal on disk)`,
      rows: [
        {
          name: 'sources swept',
          value: report.swept,
          unit: `of ${plan.to_sweep} at or above min (${plan.below_min} below)`,
          ok: report.swept === plan.to_sweep && swept.length === plan.to_sweep,
        },
        {
          name: 'orders filled',
          value: orders.filter((o) => o.status === 'FILLED').length,
          unit: `(one per source: an order has one target; ${orders.filter((o) => o.status === 'FAILED').length} FAILED at no cost, each followed by a new one)`,
        },
        { name: 'sources activated', value: plan.to_activate, unit: `(${trx(report.activation_cost_sun)} TRX)` },
        {
          name: 'total cost (rental + activation + burnt)',
          value: trx(report.total_cost_sun),
          unit: `TRX (${trx(report.rent_cost_sun)} rental, ${trx(burnt)} burnt)`,
        },
        {
          name: 'burning TRX at each source instead',
          value: trx(plan.burn_cost_sun),
          unit: 'TRX',
          baseline: trx(report.total_cost_sun),
          ratio: plan.burn_cost_sun / report.total_cost_sun,
        },
        { name: 'mock-clock time', value: mockMs / 1000, unit: 's' },
        { name: 'wall time', value: ms / 1000, unit: 's' },
        { name: 'journal size', value: statSync(journal).size / 1024, unit: `KiB (${(statSync(journal).size / SOURCES).toFixed(0)} B per source)` },
      ],
    };
  } finally {
    await mock.close();
  }
}
