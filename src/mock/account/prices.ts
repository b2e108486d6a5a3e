import { BestPriceQuery, PriceHistoryQuery } from '../../schemas/prices.js';
import { MockApiError } from '../http/errors.js';
import type { RouteDef } from '../http/route.js';

/** Prices: public, one rate-limit group (300/min). best/history/stats follow the live service. */
export const priceRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/v1/prices',
    group: 'prices',
    auth: 'public',
    handle: ({ state }) => ({ status: 200, body: null, json: state.market.pricesJson() }),
  },
  {
    method: 'GET',
    path: '/api/v1/prices/best',
    group: 'prices',
    auth: 'public',
    handle: ({ state, query, parse }) => {
      const q = parse(BestPriceQuery, query);
      const best = state.market.best(q.resource, q.amount);
      if (!best) throw new MockApiError('PROVIDER_UNAVAILABLE', `No online provider offers ${q.resource}${q.amount ? ` for ${q.amount} units` : ''}`);
      return { status: 200, body: best };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/prices/history',
    group: 'prices',
    auth: 'public',
    handle: ({ state, query, parse }) => {
      const q = parse(PriceHistoryQuery, query);
      // A filter that matches nothing is an empty list, as for any other list filter.
      if (q.provider && !state.market.provider(q.provider)) return { status: 200, body: [] };
      return { status: 200, body: state.market.history(q) };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/prices/stats',
    group: 'prices',
    auth: 'public',
    handle: ({ state }) => ({ status: 200, body: state.market.stats() }),
  },
];
