// Payouts: 1,000 USDT transfers from one sender with one rental, on the mock (real HTTP on
// loopback, the account API and the simulated TRON node at one origin, a JSON-lines journal on
// disk). Reports the wall time, the orders placed (the mock's order log), energy rented against
// used, what the batch cost against 1,000 single `transfers.send` (one 65,000-minimum order each,
// priced from the mock's own preview, the bandwidth burnt) and against burning TRX, and the
// journal's size. `node bench/run.mjs payouts` runs this section alone.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { TrxRent, toTronAddress, trxToSun } from '../dist/index.js';
import { startMockServer } from '../dist/mock/index.js';

const ROWS = Number(process.env.PAYOUTS_BENCH_ROWS ?? 1_000);

function addressOf(privateKey) {
  const pub = secp256k1.getPublicKey(hexToBytes(privateKey), false).slice(1);
  return toTronAddress(`41${bytesToHex(keccak_256(pub)).slice(-40)}`);
}

export async function run() {
  const mock = await startMockServer({ seed: 1000, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  try {
    const chain = mock.state.chain;
    const usdt = chain.token('USDT');
    const privateKey = bytesToHex(randomBytes(32));
    const from = addressOf(privateKey);
    chain.syntheticTransfer({ token: usdt, to: from, amount: 10n ** 12n, label: 'bench sender' });
    chain.fundTrx(from, 1_000_000_000n);
    // Half the recipients hold USDT already (~65k energy), half are empty (~130k).
    const payouts = Array.from({ length: ROWS }, (_, i) => {
      const to = toTronAddress(`41${bytesToHex(randomBytes(20))}`);
      if (i % 2 === 0) chain.syntheticTransfer({ token: usdt, to, amount: 1n, label: `bench holder ${i}` });
      return { to, amount: `${1 + (i % 50)}.25`, id: `p${i + 1}` };
    });
    const account = mock.state.createAccount({ trx_sun: trxToSun('1000000') });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: account.api_key, tronNode: mock.url });
    const journal = join(mkdtempSync(join(tmpdir(), 'bench-payouts-')), 'payouts.journal');
    let plan;
    const started = performance.now();
    const report = await client.transfers.sendMany(payouts, {
      signer: { privateKey },
      journal,
      concurrency: 16,
      onEvent: (e) => e.event === 'planned' && (plan = e.plan),
    });
    const ms = performance.now() - started;
    const orders = mock.state.orders.all(account.account_id);
    const energyOrders = orders.filter((o) => o.resource_type === 'ENERGY').length;
    const trx = (sun) => Number(sun) / 1e6;
    // What the chain burnt, by kind (the judge, not the report).
    const sent = [...chain.transactions.values()].filter((t) => t.transfer?.from === from);
    const burntEnergy = sent.reduce((s, t) => s + (t.energyFeeSun ?? 0), 0);
    const burntBandwidth = sent.reduce((s, t) => s + (t.netFeeSun ?? 0), 0);
    return {
      title: `Payouts: ${ROWS} USDT transfers, one rental (mock, journal on disk)`,
      rows: [
        { name: 'wall time', value: ms / 1000, unit: 's' },
        { name: 'rows confirmed', value: report.confirmed, unit: `of ${ROWS}`, ok: report.confirmed === ROWS },
        { name: 'orders placed (energy + bandwidth)', value: `${energyOrders} + ${orders.length - energyOrders}`, unit: `(${ROWS} single sends: ${ROWS})` },
        {
          name: 'energy rented / used',
          value: `${report.energy.rented} / ${report.energy.used}`,
          unit: `(${((report.energy.used / report.energy.rented) * 100).toFixed(1)} % used)`,
        },
        {
          name: 'total cost (rental + TRX burnt)',
          value: trx(report.total_cost_sun),
          unit: `TRX (${trx(report.rent_cost_sun)} rental + ${trx(burntEnergy)} burnt for energy + ${trx(burntBandwidth)} for bandwidth)`,
        },
        {
          name: `${ROWS} single transfers.send`,
          value: trx(plan?.single_sends_cost_sun ?? 0),
          unit: 'TRX',
          baseline: trx(report.total_cost_sun),
          ratio: (plan?.single_sends_cost_sun ?? 0) / report.total_cost_sun,
        },
        {
          name: 'burning TRX',
          value: trx(report.burn_cost_sun),
          unit: 'TRX',
          baseline: trx(report.total_cost_sun),
          ratio: report.burn_cost_sun / report.total_cost_sun,
        },
        { name: 'journal size', value: statSync(journal).size / 1024, unit: `KiB (${(statSync(journal).size / ROWS).toFixed(0)} B per row)` },
      ],
    };
  } finally {
    await mock.close();
  }
}
