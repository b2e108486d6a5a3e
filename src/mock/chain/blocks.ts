/**
 * The simulated chain's time: a block every 3 s of mock time from a genesis, block ids derived
 * from the height (so any recent block can serve as a TAPOS reference), the solidified block,
 * and java-tron's TAPOS and expiration windows. The first layer of `SimulatedChain`: every
 * other layer reads the clock through it.
 * @module
 */
import { hashHex } from './labels.js';

/** Mock time between two blocks (TRON's 3 s). */
export const BLOCK_INTERVAL_MS = 3_000;
/** The height of the simulated chain's first block. */
export const GENESIS_HEIGHT = 70_000_000;

/**
 * How many blocks the solidified block trails the head: 19 = 27 super representatives x 70 %
 * confirming, rounded up (java-tron `DynamicPropertiesStore.getSolidifiedBlockNum` from the
 * witnesses' latest blocks at `SOLIDIFIED_THRESHOLD` 70 %). `/walletsolidity/*` serves this view.
 */
export const SOLIDIFIED_LAG_BLOCKS = 19;

/** TAPOS: a reference block must be one of the last 65,536 (java-tron `RecentBlockStore`, keyed by 2 bytes of the number). */
export const TAPOS_WINDOW_BLOCKS = 65_536;

/** java-tron `Constant.MAXIMUM_TIME_UNTIL_EXPIRATION`: a transaction expires at most 24 h after the head block. */
export const MAX_EXPIRATION_MS = 24 * 3_600_000;

/** Options of a `SimulatedChain`; each layer reads its own. */
export interface ChainOptions {
  now: () => number;
  seed?: number;
  /** Transaction ids already accepted elsewhere in the mock (shared duplicate check). */
  broadcasted?: Set<string>;
  /** Most transactions kept; past it the oldest are forgotten (their block lists too). @default Infinity */
  maxTransactions?: number;
  /** Time of the genesis block (a restored chain keeps its own). @default 1 000 blocks before now */
  genesisTime?: number;
}

/** The chain's clock and block arithmetic: heights, block times and ids, TAPOS. */
export class ChainBlocks {
  /** The owning state's clock. */
  readonly now: () => number;
  readonly seed: number;
  readonly genesisTime: number;

  constructor(options: ChainOptions) {
    this.now = options.now;
    this.seed = options.seed ?? 1;
    this.genesisTime = options.genesisTime ?? Math.floor(options.now() / BLOCK_INTERVAL_MS) * BLOCK_INTERVAL_MS - 1_000 * BLOCK_INTERVAL_MS;
  }

  /** The block height at a time (default now). */
  height(at = this.now()): number {
    return GENESIS_HEIGHT + Math.max(0, Math.floor((at - this.genesisTime) / BLOCK_INTERVAL_MS));
  }

  /** When block `height` was produced (ms since the epoch). */
  blockTime(height: number): number {
    return this.genesisTime + (height - GENESIS_HEIGHT) * BLOCK_INTERVAL_MS;
  }

  /** Block id: 8 bytes of height then 24 bytes of hash, as on TRON. */
  blockId(height: number): string {
    return height.toString(16).padStart(16, '0') + hashHex(`trx-rent mock block ${this.seed} ${height}`).slice(16);
  }

  /** The solidified block: {@link SOLIDIFIED_LAG_BLOCKS} behind the head. */
  solidifiedHeight(at = this.now()): number {
    return Math.max(GENESIS_HEIGHT, this.height(at) - SOLIDIFIED_LAG_BLOCKS);
  }

  /** True when (ref_block_bytes, ref_block_hash) name one of the last 65 536 blocks (java-tron `Manager.validateTapos`). */
  taposMatches(refBlockBytes: string, refBlockHash: string): boolean {
    const low = Number.parseInt(refBlockBytes, 16);
    if (!Number.isFinite(low)) return false;
    const head = this.height();
    let candidate = head - ((head - low) & 0xffff);
    for (; candidate >= GENESIS_HEIGHT && candidate > head - TAPOS_WINDOW_BLOCKS; candidate -= TAPOS_WINDOW_BLOCKS) {
      if (this.blockId(candidate).slice(16, 32) === refBlockHash.toLowerCase()) return true;
    }
    return false;
  }
}
