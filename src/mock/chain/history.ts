/**
 * What each account was as of a recent block: the state the solidity node (`/walletsolidity/*`)
 * answers with, {@link SOLIDIFIED_LAG_BLOCKS} blocks behind the head, as java-tron's solidity
 * node reads its solidified database and not the head's. The chain keeps one state, the head's;
 * this keeps, per account, its record as it was before the first change in each block
 * (a pre-image), for the blocks not yet solidified. The state as of block `h` is then the
 * pre-image of the first change after `h`, or the head's record when nothing changed since.
 * Pre-images of solidified blocks are dropped as the solidified block moves on.
 * @module
 */
import { Fifo } from '../shared/fifo.js';
import type { ChainAccount } from './types.js';

/** One pre-image: the record (undefined: no record yet) before the first change in `height`. */
interface PreImage {
  height: number;
  before: ChainAccount | undefined;
}

/** A copy of a record that later changes to the original cannot reach. */
function copyOf(account: ChainAccount): ChainAccount {
  return { ...account, tokens: new Map(account.tokens) };
}

/** Per-account pre-images of the blocks not yet solidified. */
export class AccountHistory {
  readonly #byAddress = new Map<string, PreImage[]>();
  /** Every pre-image's (height, address), oldest first, to drop them once solidified. */
  readonly #order = new Fifo<readonly [number, string]>();

  /**
   * Call before changing (or creating) `address`'s record in block `height`: keeps what it was,
   * once per block. `solidified` is the solidified height now (older pre-images are dropped).
   */
  willChange(address: string, current: ChainAccount | undefined, height: number, solidified: number): void {
    this.#prune(solidified);
    let list = this.#byAddress.get(address);
    if (list && list[list.length - 1]!.height >= height) return;
    if (!list) this.#byAddress.set(address, (list = []));
    list.push({ height, before: current && copyOf(current) });
    this.#order.push([height, address]);
  }

  /**
   * `address`'s record as of the end of block `height`: the pre-image of its first change after
   * `height`, else `current` (nothing changed since). Undefined when it had no record then.
   */
  at(address: string, height: number, current: ChainAccount | undefined): ChainAccount | undefined {
    const list = this.#byAddress.get(address);
    if (list) for (const image of list) if (image.height > height) return image.before;
    return current;
  }

  /** Forget every pre-image (a restored chain starts its history anew). */
  clear(): void {
    this.#byAddress.clear();
    this.#order.clear();
  }

  /** Drop pre-images of blocks at or below the solidified one: no read goes back that far. */
  #prune(solidified: number): void {
    for (let next = this.#order.peek(); next && next[0] <= solidified; next = this.#order.peek()) {
      this.#order.shift();
      const list = this.#byAddress.get(next[1]);
      list?.shift();
      if (list && list.length === 0) this.#byAddress.delete(next[1]);
    }
  }
}
