/**
 * Test wallets on the mock's simulated chain: a fresh key (one key byte repeated) whose address
 * is an account on chain (java-tron refuses a sender, or a delegation to a target, that is none)
 * and holds `usdt` USDT; and the number of orders an account placed, from the mock's own list.
 */
import { createHash } from 'node:crypto';
import type { MockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';

/** A wallet maker for `mock`, keys from `firstKeyByte + 1` on (distinct ranges keep files apart). */
export function walletMaker(mock: () => MockServer, firstKeyByte: number) {
  let keyByte = firstKeyByte;
  return (usdt = 0n): { privateKey: string; address: string } => {
    const privateKey = (++keyByte).toString(16).padStart(2, '0').repeat(32);
    const address = privateKeyToTronAddress(privateKey);
    const chain = mock().state.chain;
    if (usdt > 0n) chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: usdt * 1_000_000n, label: `fund ${address}` });
    chain.activate(address);
    return { privateKey, address };
  };
}

/** How many orders the account of `apiKey` placed (`total` of GET /api/v1/orders on the mock). */
export async function orderCount(mock: MockServer, apiKey: string): Promise<number> {
  const r = await fetch(`${mock.url}/api/v1/orders`, { headers: { 'x-api-key': apiKey } });
  return ((await r.json()) as { total: number }).total;
}

/**
 * Fresh addresses for `mock`, distinct per `tag`: `fresh()` has nothing on chain, `target()` is
 * an account (TRX-less), since java-tron refuses a delegation to a never-activated address.
 */
export function addressMaker(mock: () => MockServer, tag: string) {
  let n = 0;
  const fresh = () => privateKeyToTronAddress(createHash('sha256').update(`${tag} ${++n}`).digest('hex'));
  const target = () => {
    const address = fresh();
    mock().state.chain.activate(address);
    return address;
  };
  return { fresh, target };
}

/**
 * A maker of keys with balances and nothing else done for them, for the chain's own rules:
 * `usdt` in atomic units (6 decimals) and `trxSun` in SUN; an address is an account on chain
 * only when it was given TRX (`trxSun > 0`), as on TRON.
 */
export function fundedWalletMaker(mock: () => MockServer, firstKeyByte: number) {
  let keyByte = firstKeyByte;
  return (usdt = 0n, trxSun = 0n): { privateKey: string; address: string } => {
    const privateKey = (++keyByte).toString(16).padStart(2, '0').repeat(32);
    const address = privateKeyToTronAddress(privateKey);
    const chain = mock().state.chain;
    if (usdt) chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: usdt, label: `fund ${address}` });
    if (trxSun) chain.fundTrx(address, trxSun);
    return { privateKey, address };
  };
}
