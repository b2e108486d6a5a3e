/**
 * Shared by the sweep tests: deposit addresses on the mock's chain (keys derived from a tag), with
 * USDT balances of all sizes, some never activated (a TRC-20 receipt creates no account), some
 * below the minimum; a funding wallet; a treasury that holds USDT; and the chain as the judge.
 */
import { createHash } from 'node:crypto';
import type { MockServer } from '../../src/mock/index.js';
import { labelAddress } from '../../src/mock/chain/labels.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';

export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** A deterministic private key for `tag`. */
export function keyOf(tag: string): string {
  return createHash('sha256').update(`sweep test ${tag}`).digest('hex');
}

export interface Source {
  privateKey: string;
  address: string;
  /** USDT atomic units deposited. */
  atomic: bigint;
  activated: boolean;
}

/**
 * `n` deposit addresses: balances from 0.5 to thousands of USDT (every fifth below 10 USDT), every
 * third never activated (USDT only), the others activated with a little TRX.
 */
export function depositSources(mock: MockServer, n: number, tag: string): Source[] {
  const chain = mock.state.chain;
  const usdt = chain.token('USDT')!;
  return Array.from({ length: n }, (_, i) => {
    const privateKey = keyOf(`${tag} ${i}`);
    const address = privateKeyToTronAddress(privateKey);
    const atomic = i % 5 === 4 ? BigInt(500_000 + i * 1_000) : BigInt(10_000_000 + ((i * 7_919) % 5_000) * 1_000_000 + i);
    chain.syntheticTransfer({ token: usdt, to: address, amount: atomic, label: `deposit ${tag} ${i}` });
    const activated = i % 3 !== 0;
    if (activated) chain.fundTrx(address, 2_000_000n);
    return { privateKey, address, atomic, activated };
  });
}

/** A funding wallet with `trx` TRX. */
export function funding(mock: MockServer, tag: string, trx = 10_000n) {
  const privateKey = keyOf(`funding ${tag}`);
  const address = privateKeyToTronAddress(privateKey);
  mock.state.chain.fundTrx(address, trx * 1_000_000n);
  return { privateKey, address };
}

/** A treasury that already holds USDT. */
export function treasury(mock: MockServer, tag: string): string {
  const to = labelAddress(`treasury ${tag}`);
  mock.state.chain.syntheticTransfer({ token: mock.state.chain.token('USDT')!, to, amount: 1n, label: `treasury ${tag}` });
  return to;
}

/** USDT transfers to `to` on the chain, by sender: count and atomic total. */
export function receivedBy(mock: MockServer, to: string): Map<string, { count: number; atomic: bigint }> {
  const out = new Map<string, { count: number; atomic: bigint }>();
  for (const tx of mock.state.chain.transactions.values()) {
    const t = tx.transfer;
    if (
      !t ||
      t.to !== to ||
      t.token.address !== USDT ||
      tx.result !== 'SUCCESS' ||
      tx.tx.signature === undefined ||
      (tx.tx.signature as unknown[]).length === 0
    )
      continue;
    const e = out.get(t.from) ?? { count: 0, atomic: 0n };
    e.count++;
    e.atomic += t.amount;
    out.set(t.from, e);
  }
  return out;
}

/** TRX transfers that created each account (account-creation fee charged), by address. */
export function activationsOf(mock: MockServer, from: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const tx of mock.state.chain.transactions.values()) {
    if (tx.trxTransfer?.from !== from) continue;
    out.set(tx.trxTransfer.to, (out.get(tx.trxTransfer.to) ?? 0) + 1);
  }
  return out;
}
