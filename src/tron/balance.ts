/**
 * `client.chain.balance`: what an address holds, read from the node (like `cast balance`): its
 * TRX (`getaccount`, SUN) and, when asked, a TRC-20 token's balance (`balanceOf` by a constant
 * call), exact in atomic units and as a decimal string. Whether it is an account on chain comes
 * with it: an address that only ever received tokens holds them and is still no account.
 * @module
 */
import { atomicToDecimal } from '../utils/units.js';
import { address, balanceOf, resolveToken } from './inputs.js';
import type { NodeCallOptions, TronNode } from './node.js';
import { readTarget } from './target.js';
import type { TokenInfo, TokenRef } from './types.js';

/** What `client.chain.balance` (`readBalance`) reads: an address's TRX, and a token's balance when one is named. */
export type ChainBalance = {
  address: string;
  /** An account on chain (it has received TRX, or an AccountCreate); tokens alone do not make one. */
  activated: boolean;
  /** TRX held, in SUN, and as a decimal string of TRX. */
  trx_sun: number;
  trx: string;
  /** The token asked for: its contract, symbol, decimals and the balance (atomic integer string, and decimal). */
  token: (TokenInfo & { balance_atomic: string; balance: string }) | null;
};

/** `address`'s TRX on the node, and `token`'s balance (a symbol such as USDT, or a contract address) when given. */
export async function readBalance(node: TronNode, who: string, options: NodeCallOptions & { token?: TokenRef | undefined } = {}): Promise<ChainBalance> {
  const target = address(who, 'address');
  const account = await readTarget(node, target, options);
  let token: ChainBalance['token'] = null;
  if (options.token !== undefined) {
    const info = await resolveToken(node, options.token, target, options.signal);
    const atomic = await balanceOf(node, info, target, target, options.signal);
    token = { ...info, balance_atomic: atomic.toString(), balance: atomicToDecimal(atomic, info.decimals) };
  }
  return { address: target, activated: account.activated, trx_sun: account.balance_sun, trx: atomicToDecimal(BigInt(account.balance_sun), 6), token };
}
