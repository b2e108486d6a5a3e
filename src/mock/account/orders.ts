import type { ACCOUNT_ENDPOINTS } from '../../api/account-docs.js';
import { LIMITS } from '../../schemas/common.js';
import { sunToTrx } from '../../utils/units.js';
import { MockApiError } from '../shared/errors.js';
import type { Candidate } from '../state/market-selection.js';
import { orderCreated, orderFull, orderListItem } from '../state/order-wire.js';
import type { PlainHandlers } from '../http/table.js';

type Orders = Pick<typeof ACCOUNT_ENDPOINTS, 'previewOrder' | 'createOrder' | 'listOrders' | 'getOrder'>;

function option(c: Candidate, amount: number) {
  return {
    provider: c.provider,
    displayName: c.displayName,
    price_sun: c.price_sun,
    cost_trx: Number(sunToTrx(amount * c.price_sun)),
    duration_sec: c.duration_sec,
  };
}

export const orderHandlers = {
  previewOrder: {
    handle: ({ state, input: { query: q } }) => {
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
  createOrder: {
    handle: ({ state, input: { body }, account }) => ({ status: 201, body: orderCreated(state.orders.create(account, body)) }),
  },
  listOrders: {
    handle: ({ state, input: { query: q }, account }) => {
      const page = state.orders.list(account.id, {
        status: q.status,
        limit: q.limit ?? LIMITS.ORDER_LIST_DEFAULT_LIMIT,
        offset: q.offset ?? 0,
      });
      return { status: 200, body: { orders: page.orders.map(orderListItem), total: page.total } };
    },
  },
  getOrder: {
    handle: ({ state, input: { params }, account }) => {
      const order = state.orders.get(account.id, params.id);
      if (!order) throw new MockApiError('NOT_FOUND', `Order ${params.id} not found`, { field: 'id' });
      return { status: 200, body: orderFull(order) };
    },
  },
} satisfies PlainHandlers<Orders>;
