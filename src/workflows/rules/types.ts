/**
 * What the rules runner needs from the SDK: a `TrxRent` fits, and so does any object with these
 * methods (the CLI builds one from its lazily loaded resources).
 * @module
 */
import type { Orders } from '../../resources/orders.js';
import type { Prices } from '../../resources/prices.js';
import type { Chain } from '../../tron/facade.js';

/** The parts of `TrxRent` the runner uses. */
export interface RulesClient {
  orders: Pick<Orders, 'create' | 'preview' | 'list' | 'get' | 'waitFor'>;
  /**
   * `plan` and `ensure` refuse a target no rental can reach themselves; `checkTarget` (a
   * `TrxRent` has it) refuses one before a `buy` action orders (TARGET_NOT_ACTIVATED,
   * TARGET_IS_CONTRACT). Without it, a buy to such a target is ordered and fails at the service.
   */
  chain: Pick<Chain, 'ensure' | 'plan' | 'read'> & Partial<Pick<Chain, 'checkTarget'>>;
  /** Only `rules backtest` reads it (price history). */
  prices?: Pick<Prices, 'history'> | undefined;
}
