/**
 * Shared by the payout tests: a funded sender on the mock's chain, recipients (half of them
 * holders already), an account with TRX for the rental, and the chain as the judge (every
 * USDT transfer from the sender, per recipient).
 */
import type { MockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { labelAddress } from '../../src/mock/chain/labels.js';
import { trxToSun } from '../../src/index.js';

export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A sender holding `usdt` USDT and 1,000 TRX, no energy. */
export function sender(mock: MockServer, seed: number, usdt = 1_000_000n) {
  const privateKey = (seed & 0xff).toString(16).padStart(2, '0').repeat(31) + 'a1';
  const address = privateKeyToTronAddress(privateKey);
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: usdt * 1_000_000n, label: `fund ${address}` });
  chain.fundTrx(address, 1_000n * 1_000_000n);
  return { privateKey, address };
}

/** `n` payouts to fresh recipients (every other one already holds USDT), amounts 1.000001, 2.000002, … */
export function payouts(mock: MockServer, n: number, tag: string) {
  const chain = mock.state.chain;
  return Array.from({ length: n }, (_, i) => {
    const to = labelAddress(`payee ${tag} ${i}`);
    if (i % 2 === 0) chain.syntheticTransfer({ token: chain.token('USDT')!, to, amount: 1n, label: `holder ${to}` });
    return {
      to,
      amount: `${i + 1}.${String(i + 1)
        .padStart(6, '0')
        .slice(-6)}`,
      id: `r${i + 1}`,
    };
  });
}

/** An account with `trx` TRX to rent with: its api key. */
export function account(mock: MockServer, trx = '100000'): { apiKey: string; accountId: string } {
  const created = mock.state.createAccount({ trx_sun: trxToSun(trx) });
  return { apiKey: created.api_key, accountId: created.account_id };
}

/** The orders the mock holds for an account (its order log: the judge of how many orders a batch placed). */
export function ordersOf(mock: MockServer, accountId: string) {
  return mock.state.orders.all(accountId);
}

/** What the chain says the sender paid each recipient: transfer count and atomic total per address. */
export function paid(mock: MockServer, from: string): Map<string, { count: number; atomic: bigint }> {
  const out = new Map<string, { count: number; atomic: bigint }>();
  for (const tx of mock.state.chain.transactions.values()) {
    const t = tx.transfer;
    if (!t || t.from !== from || t.token.address !== USDT || tx.result !== 'SUCCESS') continue;
    const e = out.get(t.to) ?? { count: 0, atomic: 0n };
    e.count++;
    e.atomic += t.amount;
    out.set(t.to, e);
  }
  return out;
}
