/**
 * What a payout run uses of the SDK, as a user of `TrxRent` would (typed structurally so the
 * workflow never imports the client module itself: the client reaches the workflow lazily).
 * @module
 */
import type { Orders } from '../../resources/orders.js';
import type { Prices } from '../../resources/prices.js';
import type { Transactions } from '../../resources/transactions.js';
import type { Chain } from '../../tron/facade.js';
import type { TronNode } from '../../tron/node.js';
import type { Clock } from '../../utils/clock.js';
import type { BatchService } from './journal.js';

/** The SDK pieces a payout run works with. */
export interface PayoutDeps {
  orders: Pick<Orders, 'preview' | 'create' | 'waitFor'>;
  prices: Pick<Prices, 'list'>;
  transactions: Pick<Transactions, 'broadcast'>;
  chain: Pick<Chain, 'ensure' | 'read'>;
  node: TronNode;
  clock: Clock;
  /** The service the batch spends on (its origin and a fingerprint of the API key): the journal is bound to it. */
  service?: BatchService | undefined;
}

/** Run `work` over `items` with at most `limit` at a time; the first error stops new starts and is thrown. */
export async function eachLimit<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  let failed: { error: unknown } | undefined;
  const lane = async () => {
    while (!failed && next < items.length && !signal?.aborted) {
      const i = next++;
      try {
        await work(items[i]!, i);
      } catch (error) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failed) throw failed.error;
}
