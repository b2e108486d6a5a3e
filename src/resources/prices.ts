import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import type { BestPriceQuery, PriceHistoryQuery } from '../schemas/prices.js';
import { Resource } from './resource.js';

/** `client.prices`: provider prices, the best price, price history and market statistics (public). */
export class Prices extends Resource {
  /** Every provider's price tiers (refreshed every 30 s). */
  list(options?: RequestOptions) {
    return this.call(E.listPrices, {}, options);
  }

  /** The cheapest provider for a resource (follows the live service). */
  best(params: BestPriceQuery, options?: RequestOptions) {
    return this.call(E.getBestPrice, { query: params }, options);
  }

  /** Past provider prices (follows the live service). */
  history(params: PriceHistoryQuery = {}, options?: RequestOptions) {
    return this.call(E.getPriceHistory, { query: params }, options);
  }

  /** Market statistics (follows the live service). */
  stats(options?: RequestOptions) {
    return this.call(E.getPriceStats, {}, options);
  }
}
