/**
 * One table of faults for every entry point of the one money path (issue 37): each case runs,
 * from this one list, against `transfers.send`, a payout row (`transfers.sendMany`), MCP
 * `send_token` and MCP `send_batch`. An entry point tries once and, on any failure, once more
 * as a user would (the same idempotency key, the same rows and journal, the same tool call).
 * The judge is the mock's chain (USDT transfers from the sender to the recipient) and its order
 * log, never what the client says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { MemoryJournal } from '../../src/workflows/payouts/index.js';
import { type HostileProxy, type Rule, hostileProxy } from '../helpers/hostile-proxy.js';
import { KEYS, accept, call, connect } from '../mcp/helpers.js';
import { labelAddress } from '../../src/mock/chain/labels.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const MCP_WALLET = privateKeyToTronAddress(KEYS.tron);
let mock: MockServer;
const proxies: HostileProxy[] = [];
beforeAll(async () => {
  mock = await startMockServer({ seed: 3737, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: MCP_WALLET, amount: 1_000_000_000n, label: 'mcp wallet' });
  chain.fundTrx(MCP_WALLET, 10_000_000_000n);
});
afterAll(async () => {
  for (const p of proxies) await p.close();
  await mock?.close();
});

/** What the chain says `from` paid `to` (successful USDT transfers). */
function paidCount(from: string, to: string): number {
  let n = 0;
  for (const tx of mock.state.chain.transactions.values())
    if (tx.transfer?.from === from && tx.transfer.to === to && tx.transfer.token.address === USDT && tx.result === 'SUCCESS') n++;
  return n;
}

/** The world one attempt meets: the mock behind a proxy with the case's rules, a fresh recipient, a fresh account. */
interface World {
  proxy: HostileProxy;
  apiKey: string;
  accountId: string;
  to: string;
}

/** One entry point: pays 1 USDT from its sender to `w.to`, retrying once as a user would; returns its sender. */
interface EntryPoint {
  name: string;
  pay(w: World): Promise<{ from: string; outcomes: string[] }>;
}

let keyByte = 0x40;
function freshSender() {
  const privateKey = (++keyByte).toString(16).padStart(2, '0').repeat(32);
  const address = privateKeyToTronAddress(privateKey);
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: 100_000_000n, label: `fund ${address}` });
  chain.fundTrx(address, 1_000_000_000n);
  return { privateKey, address };
}
const twice = async (attempt: () => Promise<string>) => {
  const outcomes: string[] = [];
  for (let i = 0; i < 2; i++) {
    const got = await attempt().catch((e: { code?: string }) => `error ${e.code ?? 'ERROR'}`);
    outcomes.push(got);
    if (got === 'ok') break;
  }
  return outcomes;
};

const ENTRY_POINTS: EntryPoint[] = [
  {
    name: 'transfers.send',
    async pay(w) {
      const s = freshSender();
      const client = new TrxRent({ baseUrl: w.proxy.url, tronNode: w.proxy.url, apiKey: w.apiKey, retry: { baseDelayMs: 5, maxDelayMs: 20 }, maxRetries: 1 });
      const outcomes = await twice(async () => {
        await client.transfers.send({
          token: 'USDT',
          to: w.to,
          amount: '1',
          signer: { privateKey: s.privateKey },
          idempotencyKey: `fault-${w.to}`,
          timeoutMs: 8_000,
          maxCostSun: 20_000_000,
        });
        return 'ok';
      });
      return { from: s.address, outcomes };
    },
  },
  {
    name: 'a payout row',
    async pay(w) {
      const s = freshSender();
      const client = new TrxRent({ baseUrl: w.proxy.url, tronNode: w.proxy.url, apiKey: w.apiKey, retry: { baseDelayMs: 5, maxDelayMs: 20 }, maxRetries: 1 });
      const journal = new MemoryJournal();
      const outcomes = await twice(async () => {
        const report = await client.transfers
          .sendMany([{ to: w.to, amount: '1', id: 'r1' }], {
            signer: { privateKey: s.privateKey },
            journal: new MemoryJournal(journal.entries()),
            rowTimeoutMs: 6_000,
            expirationMs: 60_000,
            maxCostSun: 20_000_000,
          })
          .finally(async () => {
            // The next attempt resumes from what this one journaled.
          });
        return report.complete ? 'ok' : `incomplete ${report.pending}`;
      });
      return { from: s.address, outcomes };
    },
  },
  {
    name: 'MCP send_token',
    async pay(w) {
      const c = await connect(
        mock,
        {
          baseUrl: w.proxy.url,
          tronFullNode: w.proxy.url,
          apiKey: w.apiKey,
          allowSpend: true,
          limits: { maxWithdrawal: '10', maxOrderTrx: '50', sessionLimit: '1000' },
          // As transfers.send's 8 s above: a hidden receipt ends the call as unknown, and the retry settles it.
          sendTimeoutMs: 8_000,
        },
        accept,
      );
      try {
        const outcomes = await twice(async () => {
          // The same call again, with the caller's payment id: the retry a careful agent makes.
          const r = await call(c.client, 'send_token', { token: 'USDT', to: w.to, amount: '1', id: `pay-${w.to}` }, 30_000);
          return r.isError ? `error ${JSON.stringify(r.content).slice(0, 60)}` : 'ok';
        });
        return { from: MCP_WALLET, outcomes };
      } finally {
        await c.close();
      }
    },
  },
  {
    name: 'MCP send_batch',
    async pay(w) {
      const c = await connect(
        mock,
        {
          baseUrl: w.proxy.url,
          tronFullNode: w.proxy.url,
          apiKey: w.apiKey,
          allowSpend: true,
          limits: { maxWithdrawal: '10', maxOrderTrx: '150', sessionLimit: '1000' },
          // As the payout row's 6 s above: a hidden receipt leaves the row pending, and the retry settles it.
          sendTimeoutMs: 6_000,
        },
        accept,
      );
      try {
        const outcomes = await twice(async () => {
          const r = await call(c.client, 'send_batch', { payouts: [{ to: w.to, amount: '1', id: 'r1' }] }, 40_000);
          return r.isError
            ? `error ${JSON.stringify(r.content).slice(0, 60)}`
            : (r.structuredContent as { complete?: boolean })?.complete
              ? 'ok'
              : 'incomplete';
        });
        return { from: MCP_WALLET, outcomes };
      } finally {
        await c.close();
      }
    },
  },
];

const BROADCAST = /^POST \/api\/v1\/broadcast$/;
const withData = (b: any, edit: (inner: any) => any) => ('data' in b ? { data: edit(b.data) } : edit(b));

/** The cases: the rules the proxy applies, and what the chain must show. */
const CASES: Array<{ name: string; rules: () => Rule[]; paid: 'exactly once' | 'at most once' }> = [
  { name: 'the broadcast accepted and its answer lost', rules: () => [{ match: BROADCAST, fault: 'lost', times: 1 }], paid: 'exactly once' },
  { name: 'the broadcast accepted and answered 500', rules: () => [{ match: BROADCAST, fault: '5xx', times: 2 }], paid: 'exactly once' },
  {
    name: 'the receipt reads failing for a while',
    rules: () => [{ match: /^POST \/wallet\/gettransactioninfobyid$/, fault: '5xx', times: 4 }],
    paid: 'exactly once',
  },
  {
    name: 'a broadcast answer naming another tx id',
    rules: () => [{ match: BROADCAST, fault: 'rewrite', rewrite: (b) => withData(b, (d) => ({ ...d, tx_id: 'ee'.repeat(32) })) }],
    paid: 'at most once',
  },
  {
    name: 'a node that hides receipts and reports the solidified block a day ahead',
    rules: () => [
      { match: /^POST \/wallet(solidity)?\/gettransactioninfobyid$/, fault: 'rewrite', rewrite: () => ({}) },
      {
        match: /^POST \/walletsolidity\/getnowblock$/,
        fault: 'rewrite',
        rewrite: (b) => ({
          ...b,
          block_header: { ...b.block_header, raw_data: { ...b.block_header?.raw_data, timestamp: (b.block_header?.raw_data?.timestamp ?? 0) + 86_400_000 } },
        }),
      },
    ],
    paid: 'at most once',
  },
];

describe.each(CASES)('$name', ({ rules, paid }) => {
  it.each(ENTRY_POINTS)('$name pays the recipient $paid (the chain is the judge)'.replace('$paid', paid), { timeout: 120_000 }, async (entry) => {
    const account = mock.state.createAccount({ trx_sun: trxToSun('2000') });
    const proxy = await hostileProxy(mock.url, { rules: rules() });
    proxies.push(proxy);
    const to = labelAddress(`money-path ${entry.name} ${proxies.length}`);
    mock.state.chain.activate(to);
    const { from, outcomes } = await entry.pay({ proxy, apiKey: account.api_key, accountId: account.account_id, to });
    const count = paidCount(from, to);
    if (paid === 'exactly once') expect(count, `${entry.name}: ${outcomes.join(' / ')}`).toBe(1);
    else expect(count, `${entry.name}: ${outcomes.join(' / ')}`).toBeLessThanOrEqual(1);
    // Never more orders than attempts to rent for one transfer, whatever the faults.
    expect(mock.state.orders.all(account.account_id).length).toBeLessThanOrEqual(2);
  });
});

describe('prices moved after the confirmation', () => {
  // The preview quotes a fifth of the real price: the order carries the cap's price ceiling, and nothing is charged above it.
  const fifth = (b: any) =>
    withData(b, (p: any) => ({ ...p, best: p.best && { ...p.best, price_sun: Number(p.best.price_sun) / 5, cost_trx: Number(p.best.cost_trx) / 5 } }));
  it.each(ENTRY_POINTS)('$name is never charged past its cap (the order log is the judge)', { timeout: 120_000 }, async (entry) => {
    const account = mock.state.createAccount({ trx_sun: trxToSun('2000') });
    const proxy = await hostileProxy(mock.url, { rules: [{ match: /^GET \/api\/v1\/orders\/preview$/, fault: 'rewrite', rewrite: fifth }] });
    proxies.push(proxy);
    const to = labelAddress(`moved ${entry.name}`);
    mock.state.chain.activate(to);
    await entry.pay({ proxy, apiKey: account.api_key, accountId: account.account_id, to });
    for (const order of mock.state.orders.all(account.account_id)) {
      const body = order as unknown as { max_price_sun?: number | null; amount: number; total_cost_sun?: number | null };
      expect(body.max_price_sun, 'every order a workflow places carries a price ceiling').toBeGreaterThan(0);
      if (body.total_cost_sun) expect(body.total_cost_sun).toBeLessThanOrEqual(body.max_price_sun! * body.amount);
    }
  });
});
