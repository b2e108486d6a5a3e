/**
 * A small constant-product DEX (x·y = k, 0.3 % fee) with TRX as the hub: TRX/USDT, TRX/USDC,
 * TRX/USDD. Token-to-token swaps route through TRX. Amounts are exact (bigint atomic units);
 * quotes and executions use the same math, and executions move the reserves.
 * @module
 */
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';
import { CHAIN_TOKENS } from '../chain/accounts.js';

export interface DexToken {
  symbol: string;
  address: string | null;
  decimals: number;
}

const TRX: DexToken = { symbol: 'TRX', address: null, decimals: 6 };

interface Pool {
  token: DexToken;
  /** TRX reserve in SUN. */
  trx: bigint;
  /** Token reserve in atomic units. */
  reserve: bigint;
}

const FEE_NUM = 997n;
const FEE_DEN = 1000n;
const SCALE = 10n ** 18n;

export interface SwapQuoteResult {
  from: DexToken;
  to: DexToken;
  amountIn: bigint;
  amountOut: bigint;
  amount_out: string;
  price_impact: string;
  rate: string;
  route: string[];
}

export class Dex {
  readonly pools = new Map<string, Pool>();

  constructor() {
    const seen = new Set<string>();
    for (const t of CHAIN_TOKENS) {
      if (seen.has(t.symbol)) continue;
      seen.add(t.symbol);
      const token = { symbol: t.symbol, address: t.address, decimals: t.decimals };
      // ~0.27 USD per TRX; deep enough that small swaps have a small impact.
      const usd = t.symbol === 'USDT' ? 10_800_000n : t.symbol === 'USDC' ? 2_700_000n : 5_400_000n;
      this.pools.set(t.symbol, { token, trx: (usd * 10n ** 6n * 100n) / 27n, reserve: usd * 10n ** BigInt(t.decimals) });
    }
  }

  /** `TRX`, a symbol, or a TRC-20 address. */
  resolve(ref: string): DexToken | undefined {
    if (ref.toUpperCase() === 'TRX') return TRX;
    for (const pool of this.pools.values()) {
      if (pool.token.symbol === ref.toUpperCase() || pool.token.address === ref) return pool.token;
    }
    const alias = CHAIN_TOKENS.find((t) => t.address === ref);
    return alias ? this.pools.get(alias.symbol)?.token : undefined;
  }

  #hops(from: DexToken, to: DexToken): Array<{ pool: Pool; toTrx: boolean }> {
    const hops: Array<{ pool: Pool; toTrx: boolean }> = [];
    if (from.symbol !== 'TRX') hops.push({ pool: this.pools.get(from.symbol)!, toTrx: true });
    if (to.symbol !== 'TRX') hops.push({ pool: this.pools.get(to.symbol)!, toTrx: false });
    return hops;
  }

  quote(fromRef: string, toRef: string, amount: string): SwapQuoteResult {
    return this.#run(fromRef, toRef, amount, false);
  }

  execute(fromRef: string, toRef: string, amount: string): SwapQuoteResult {
    return this.#run(fromRef, toRef, amount, true);
  }

  #run(fromRef: string, toRef: string, amount: string, apply: boolean): SwapQuoteResult {
    const from = this.resolve(fromRef);
    const to = this.resolve(toRef);
    if (!from) throw new RangeError(`Unknown token ${fromRef}`);
    if (!to) throw new RangeError(`Unknown token ${toRef}`);
    if (from.symbol === to.symbol) throw new RangeError('from and to are the same token');
    const amountIn = decimalToAtomic(amount, from.decimals, 'amount');
    if (amountIn <= 0n) throw new RangeError('amount must be positive');
    let current = amountIn;
    // spot = product of reserve ratios (no fee, no impact), scaled by 1e18
    let spotNum = 1n;
    let spotDen = 1n;
    const updates: Array<() => void> = [];
    for (const { pool, toTrx } of this.#hops(from, to)) {
      const rin = toTrx ? pool.reserve : pool.trx;
      const rout = toTrx ? pool.trx : pool.reserve;
      const out = (current * FEE_NUM * rout) / (rin * FEE_DEN + current * FEE_NUM);
      spotNum *= rout;
      spotDen *= rin;
      const input = current;
      updates.push(() => {
        if (toTrx) {
          pool.reserve += input;
          pool.trx -= out;
        } else {
          pool.trx += input;
          pool.reserve -= out;
        }
      });
      current = out;
    }
    if (current <= 0n) throw new RangeError('amount is too small to swap');
    if (apply) for (const u of updates) u();
    const ideal = (amountIn * spotNum) / spotDen; // out at spot price, atomic units of `to`
    const impact = ideal > 0n ? ((ideal - current) * SCALE * 100n) / ideal : 0n; // percent, 1e18
    // rate: units of `to` per unit of `from`, as a decimal
    const rate = (current * 10n ** BigInt(from.decimals) * SCALE) / (amountIn * 10n ** BigInt(to.decimals));
    return {
      from,
      to,
      amountIn,
      amountOut: current,
      amount_out: atomicToDecimal(current, to.decimals),
      price_impact: round(atomicToDecimal(impact, 18), 4),
      rate: round(atomicToDecimal(rate, 18), 8),
      route: [from.symbol, ...(from.symbol !== 'TRX' && to.symbol !== 'TRX' ? ['TRX'] : []), to.symbol],
    };
  }
}

/** Truncate a decimal string to `places` decimals (never rounds up). */
function round(text: string, places: number): string {
  const [whole, frac = ''] = text.split('.');
  const cut = frac.slice(0, places).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole!;
}
