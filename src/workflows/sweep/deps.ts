/**
 * What a sweep uses of the SDK, typed structurally (the workflow never imports the client module:
 * the client reaches it lazily).
 * @module
 */
import type { Orders } from '../../resources/orders.js';
import type { Transactions } from '../../resources/transactions.js';
import type { Chain } from '../../tron/facade.js';
import type { TronNode } from '../../tron/node.js';
import type { Clock } from '../../utils/clock.js';

/** The SDK pieces a sweep works with. */
export interface SweepDeps {
  orders: Pick<Orders, 'preview' | 'create' | 'waitFor'>;
  transactions: Pick<Transactions, 'broadcast'>;
  chain: Pick<Chain, 'read' | 'activate'>;
  node: TronNode;
  clock: Clock;
}
