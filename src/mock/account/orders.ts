import { CreateOrderRequest, ListOrdersQuery } from '../../schemas/orders.js';
import { PreviewQuery } from '../../schemas/prices.js';
import { LIMITS } from '../../schemas/common.js';
import { sunToTrx } from '../../utils/units.js';
import { MockApiError } from '../http/errors.js';
import type { Candidate } from '../state/market.js';
import { orderCreated, orderFull, orderListItem } from '../state/orders.js';
import type { RouteDef } from '../http/route.js';

function option(c: Candidate, amount: number) {
  return {
    provider: c.provider,
    displayName: c.displayName,
    price_sun: c.price_sun,
    cost_trx: Number(sunToTrx(amount * c.price_sun)),
    duration_sec: c.duration_sec,
  };
}

export const orderRoutes: RouteDef[] = [
  {
    // Listed before /orders/:id so "preview" is never read as an id. Public: the spec does not
    // say preview needs authentication, and it places nothing.
    method: 'GET',
    path: '/api/v1/orders/preview',
    group: 'other',
    auth: 'public',
    handle: ({ state, query, parse }) => {
      const q = parse(PreviewQuery, query);
      state.orders.checkDuration(q.duration, 'duration');
      const selection = state.market.select({ resource: q.resource, amount: q.amount, duration_sec: q.duration, max_price_sun: q.max_price_sun });
      return {
        status: 200,
        body: {
          best: selection.best ? option(selection.best, q.amount) : null,
          fallbacks: selection.fallbacks.map((c) => option(c, q.amount)),
          no_providers: selection.no_providers,
        },
      };
    },
  },
  {
    method: 'POST',
    path: '/api/v1/orders',
    group: 'orders',
    auth: 'create_orders',
    body: true,
    requireJson: true,
    idempotent: true,
    statuses: { VALIDATION_ERROR: 400, INSUFFICIENT_BALANCE: 402 },
    handle: ({ state, body, account, parse }) => {
      const input = parse(CreateOrderRequest, body);
      const order = state.orders.create(account, input);
      return { status: 201, body: orderCreated(order) };
    },
  },
  {
    method: 'GET',
    path: '/api/v1/orders',
    group: 'orders',
    auth: 'view_orders',
    handle: ({ state, query, account, parse }) => {
      const q = parse(ListOrdersQuery, query);
      const page = state.orders.list(account.id, {
        status: q.status,
        limit: q.limit ?? LIMITS.ORDER_LIST_DEFAULT_LIMIT,
        offset: q.offset ?? 0,
      });
      return { status: 200, body: { orders: page.orders.map(orderListItem), total: page.total } };
    },
  },
  {
    // GET /orders/:id is in the "all other endpoints" group: only GET and POST /orders share 10/min.
    method: 'GET',
    path: '/api/v1/orders/:id',
    group: 'other',
    auth: 'view_orders',
    handle: ({ state, params, account }) => {
      const order = state.orders.get(account.id, params.id ?? '');
      if (!order) throw new MockApiError('NOT_FOUND', `Order ${params.id} not found`, { field: 'id' });
      return { status: 200, body: orderFull(order) };
    },
  },
];
