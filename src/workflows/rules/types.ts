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
  chain: Pick<Chain, 'ensure' | 'plan' | 'read'>;
  /** Only `rules backtest` reads it (price history). */
  prices?: Pick<Prices, 'history'> | undefined;
}
