/**
 * The sandbox's funded test accounts, like anvil's ten: private keys derived from the mock's
 * seed alone (SHA-256 of a label, the seed and the index), so the same seed gives the same
 * accounts on every run and on every machine, and a client can derive them knowing only the seed
 * (`trx-rent mock accounts` does). A new chain gives each one TRX (which makes it an account, as
 * on TRON) and USDT at genesis. These keys are public to anyone who knows the seed: test keys
 * for the simulated chain, never for real funds.
 * @module
 */
import { privateKeyToTronAddress } from '../../protocol/tron-keys.js';
import { hashHex } from './labels.js';

/** How many sandbox accounts a new chain funds. */
export const SANDBOX_ACCOUNT_COUNT = 10;
/** TRX each one holds at genesis, in SUN (10,000 TRX). */
export const SANDBOX_TRX_SUN = 10_000_000_000n;
/** USDT each one holds at genesis, in atomic units (10,000 USDT). */
export const SANDBOX_USDT_ATOMIC = 10_000_000_000n;

/** One sandbox account: its index, address and private key (64 hex). */
export interface SandboxAccount {
  index: number;
  address: string;
  private_key: string;
}

// secp256k1's group order: a key must be in 1…n-1.
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The private key of sandbox account `index` for `seed` (a hash; rehashed in the vanishing case it is no valid key). */
export function sandboxKey(seed: number, index: number): string {
  for (let attempt = 0; ; attempt++) {
    const key = hashHex(`trx-rent mock sandbox account ${seed} ${index}${attempt ? ` ${attempt}` : ''}`);
    const n = BigInt(`0x${key}`);
    if (n > 0n && n < CURVE_ORDER) return key;
  }
}

/** Accounts derived so far, per seed (a public key costs a curve multiplication; states of one seed share them). */
const DERIVED = new Map<number, SandboxAccount[]>();

/** The first `count` sandbox accounts of `seed`, with their keys. */
export function sandboxAccounts(seed: number, count = SANDBOX_ACCOUNT_COUNT): SandboxAccount[] {
  let known = DERIVED.get(seed) ?? [];
  for (let index = known.length; index < count; index++) {
    const key = sandboxKey(seed, index);
    known = [...known, { index, address: privateKeyToTronAddress(key), private_key: key }];
  }
  if (DERIVED.size >= 64 && !DERIVED.has(seed)) DERIVED.clear();
  DERIVED.set(seed, known);
  return known.slice(0, count).map((a) => ({ ...a }));
}
