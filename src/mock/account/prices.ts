import type { ACCOUNT_ENDPOINTS } from '../../api/account-docs.js';
import { MockApiError } from '../shared/errors.js';
import type { PlainHandlers } from '../http/table.js';

type Prices = Pick<typeof ACCOUNT_ENDPOINTS, 'listPrices' | 'getBestPrice' | 'getPriceHistory' | 'getPriceStats'>;

/** Prices: public, one rate-limit group (300/min). best/history/stats follow the live service. */
export const priceHandlers = {
  listPrices: { handle: ({ state }) => ({ status: 200, body: null, json: state.market.pricesJson() }) },
  getBestPrice: {
    handle: ({ state, input: { query: q } }) => {
      const best = state.market.best(q.resource, q.amount);
      if (!best) throw new MockApiError('PROVIDER_UNAVAILABLE', `No online provider offers ${q.resource}${q.amount ? ` for ${q.amount} units` : ''}`);
      return { status: 200, body: best };
    },
  },
  getPriceHistory: {
    handle: ({ state, input: { query: q } }) => {
      // A filter that matches nothing is an empty list, as for any other list filter.
      if (q.provider && !state.market.provider(q.provider)) return { status: 200, body: [] };
      return { status: 200, body: state.market.history(q) };
    },
  },
  getPriceStats: { handle: ({ state }) => ({ status: 200, body: state.market.stats() }) },
} satisfies PlainHandlers<Prices>;
