import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import {
  BestPriceQuery,
  PriceEntry,
  PriceHistory,
  PriceHistoryQuery,
  PriceList,
  PriceStats,
} from '../schemas/prices.js';
import { Resource } from './resource.js';

/** `client.prices`: provider prices, the best price, price history and market statistics. */
export class Prices extends Resource {
  /** GET /api/v1/prices: every provider's price tiers (public; refreshed every 30 s). */
  list(options?: RequestOptions) {
    return this.call(() => ({ method: 'GET', path: '/api/v1/prices', schema: PriceList, auth: false, options }));
  }

  /** GET /api/v1/prices/best: the cheapest provider for a resource (follows the live service). */
  best(params: BestPriceQuery, options?: RequestOptions) {
    return this.call(() => {
      const query = validateRequest(BestPriceQuery, params);
      return { method: 'GET', path: '/api/v1/prices/best', query, schema: PriceEntry, auth: false, options };
    });
  }

  /** GET /api/v1/prices/history (follows the live service). */
  history(params: PriceHistoryQuery = {}, options?: RequestOptions) {
    return this.call(() => {
      const query = validateRequest(PriceHistoryQuery, params);
      return { method: 'GET', path: '/api/v1/prices/history', query, schema: PriceHistory, auth: false, options };
    });
  }

  /** GET /api/v1/prices/stats (follows the live service). */
  stats(options?: RequestOptions) {
    return this.call(() => ({ method: 'GET', path: '/api/v1/prices/stats', schema: PriceStats, auth: false, options }));
  }
}
